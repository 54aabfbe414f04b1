package plan

import (
	"fmt"
	"slices"
	"strings"
)

// recommend writes the one-paragraph recommendation: what the runs showed
// under each profile, what to do, and what it assumed.
func recommend(b *builder, r *Result) string {
	st := &b.st
	var s strings.Builder
	fmt.Fprintf(&s, "Partition %s holds %s (%s on the leader's disk, %s not yet uploaded). ",
		b.f.TP, formatBytes(st.LogBytes), formatBytes(st.LocalBytes), formatBytes(st.PendingUploadBytes))
	if !st.RemoteStorageEnable {
		s.WriteString("Tiering is off, so follower.fetch.last.tiered.offset.enable makes no difference here: leave it as it is. ")
		s.WriteString(assumedText(b))
		return s.String()
	}
	var clauses []string
	for _, pp := range r.Profiles {
		clauses = append(clauses, profileClause(&pp))
	}
	s.WriteString("A new, empty replica: " + strings.Join(clauses, "; ") + ". ")
	if b.unsupported6 {
		s.WriteString("Your brokers do not answer ListOffsets -6, so they predate Kafka 4.2 and have no such flag: the advice below is for after an upgrade to 4.3. ")
	}
	s.WriteString(advice(r) + " ")
	if pp := r.Profiles[0]; pp.Strategies[1].PriceRemoteBytes != nil && pp.Strategies[0].PriceRemoteBytes != nil {
		fmt.Fprintf(&s, "The price: once such a replica leads, a consumer reading from the log start gets %s from remote storage instead of %s. ",
			formatBytes(pp.Strategies[1].PriceRemoteBytes.Median), formatBytes(pp.Strategies[0].PriceRemoteBytes.Median))
	}
	s.WriteString("Before you ever disable tiering on this topic, move leadership off replicas that bootstrapped with the flag on. ")
	s.WriteString(assumedText(b))
	return s.String()
}

// profileClause is what one profile's runs showed, in a few words.
func profileClause(pp *ProfilePlan) string {
	off, on := &pp.Strategies[0], &pp.Strategies[1]
	joins := func(sp *StrategyPlan) string {
		switch {
		case sp.Joined == 0:
			return "never joins"
		case sp.Joined < sp.Seeds:
			return fmt.Sprintf("joins in %d of %d seeds", sp.Joined, sp.Seeds)
		}
		return "joins in " + formatMs(sp.CatchUpMs.Median)
	}
	c := fmt.Sprintf("under %s it %s with the flag", pp.Profile, joins(on))
	if ids := stallIDs(pp); len(ids) > 0 {
		c += " (" + strings.Join(ids, ", ") + ")"
	}
	offText := joins(off)
	if strings.HasPrefix(offText, "joins in") && strings.HasPrefix(joins(on), "joins in") {
		offText = strings.TrimPrefix(offText, "joins ")
	}
	c += " and " + offText + " without"
	if on.BytesFromLeader != nil && off.BytesFromLeader != nil {
		c += fmt.Sprintf(", copying %s instead of %s", formatBytes(on.BytesFromLeader.Median), formatBytes(off.BytesFromLeader.Median))
	}
	return c
}

func stallIDs(pp *ProfilePlan) []string {
	var ids []string
	for _, h := range pp.Hazards {
		if h.Severity == "stall" || h.Severity == "slower" {
			ids = append(ids, h.ID)
		}
	}
	return ids
}

// advice turns the verdicts into what to do, releases first: the kip
// profile is the KIP text, not a release, and only breaks a tie.
func advice(r *Result) string {
	var on, off, other []string
	for _, pp := range r.Profiles {
		if !strings.HasPrefix(pp.Profile, "kafka-") {
			continue
		}
		switch pp.Verdict {
		case "on":
			on = append(on, pp.Profile)
		case "off", "neither":
			off = append(off, pp.Profile)
		default:
			other = append(other, pp.Profile)
		}
	}
	caveat := ""
	for _, pp := range r.Profiles {
		if pp.Verdict == "on" && slices.Contains(on, pp.Profile) && len(stallIDs(&pp)) > 0 {
			caveat = fmt.Sprintf(", but expect the delay %s shows (%s)", pp.Profile, strings.Join(stallIDs(&pp), ", "))
		}
	}
	switch {
	case len(on) == 0 && len(off) == 0 && len(other) == 0:
		return "Recommendation (no release profile was run): " + kipAdvice(r)
	case len(off) == 0 && len(on) > 0:
		return fmt.Sprintf("Recommendation: turn the flag on for this topic (%s)%s.", strings.Join(on, ", "), caveat)
	case len(on) == 0 && len(off) > 0:
		return fmt.Sprintf("Recommendation: leave the flag off for this topic (%s).", strings.Join(off, ", "))
	case len(on) > 0:
		return fmt.Sprintf("Recommendation: it depends on your release: turn it on with %s, leave it off with %s.", strings.Join(on, ", "), strings.Join(off, ", "))
	}
	return fmt.Sprintf("Recommendation: either way (%s): the flag changes catch-up by less than 10%%.", strings.Join(other, ", "))
}

func kipAdvice(r *Result) string {
	for _, pp := range r.Profiles {
		if pp.Verdict == "on" {
			return "the KIP text says turn it on."
		}
	}
	return "the KIP text says leave it off."
}

// assumedText says in a sentence what the plan assumed.
func assumedText(b *builder) string {
	env := &b.in.Env
	part := func(flag, text string) string {
		if env.Given[flag] {
			return text
		}
		return text + " (a default: --" + flag + ")"
	}
	s := fmt.Sprintf("This assumes %s, %s", part(FlagProduce, formatBytes(env.ProduceBytesPerSec)+"/s produced"),
		part(FlagReplication, formatBytes(env.ReplicationBytesPerSec)+"/s of replication bandwidth"))
	return s + fmt.Sprintf(" and the %d assumption(s) listed below.", len(b.assume))
}
