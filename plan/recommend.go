package plan

import (
	"fmt"
	"slices"
	"strings"
)

// recommend writes the one-paragraph recommendation, the verdict first:
// what to do (and why a profile is left out of it), then what the runs
// showed, profiles that agree together, one quantity a sentence, and
// what it assumed.
func recommend(b *builder, r *Result) string {
	st := &b.st
	var s strings.Builder
	if !st.RemoteStorageEnable {
		s.WriteString("Recommendation: leave follower.fetch.last.tiered.offset.enable as it is: tiering is off, so the flag makes no difference here. ")
	} else {
		s.WriteString(advice(r) + " ")
	}
	fmt.Fprintf(&s, "Partition %s holds %s: %s on the leader's disk, %s not yet uploaded. ",
		b.f.TP, formatBytes(st.LogBytes), formatBytes(st.LocalBytes), formatBytes(st.PendingUploadBytes))
	if !st.RemoteStorageEnable {
		s.WriteString(assumedText(b))
		return s.String()
	}
	times, copies := agreeing(r, timeClause), agreeing(r, bytesClause)
	if len(times) == 1 && len(copies) == 1 && len(r.Profiles) > 1 {
		fmt.Fprintf(&s, "Under every profile run (%s), %s. %s. ", andList(times[0].names), times[0].clause, capitalize(copies[0].clause))
	} else {
		for _, a := range append(times, copies...) {
			fmt.Fprintf(&s, "Under %s, %s. ", andList(a.names), a.clause)
		}
	}
	if b.unsupported6 {
		s.WriteString("Your brokers do not answer ListOffsets -6, so they predate Kafka 4.2 and have no such flag: the advice is for after an upgrade to 4.3. ")
	}
	if pp := r.Profiles[0]; pp.Strategies[1].PriceRemoteBytes != nil && pp.Strategies[0].PriceRemoteBytes != nil {
		fmt.Fprintf(&s, "The price: once such a replica leads, a consumer reading from the log start gets %s from remote storage instead of %s. ",
			formatBytes(pp.Strategies[1].PriceRemoteBytes.Median), formatBytes(pp.Strategies[0].PriceRemoteBytes.Median))
	}
	s.WriteString("Before you ever disable tiering on this topic, move leadership off replicas that bootstrapped with the flag on. ")
	s.WriteString(assumedText(b))
	return s.String()
}

// agreement is a clause and the profiles whose runs it describes.
type agreement struct {
	clause string
	names  []string
}

// agreeing groups the profiles by their clause (clause gives a
// profile's), in the order of their first profile.
func agreeing(r *Result, clause func(*ProfilePlan) string) []agreement {
	var out []agreement
	for i := range r.Profiles {
		pp := &r.Profiles[i]
		c := clause(pp)
		if j := slices.IndexFunc(out, func(a agreement) bool { return a.clause == c }); j >= 0 {
			out[j].names = append(out[j].names, pp.Profile)
			continue
		}
		out = append(out, agreement{clause: c, names: []string{pp.Profile}})
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// andList is "a", "a and b", "a, b and c".
func andList(list []string) string {
	if len(list) <= 1 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}

// timeClause says how long a new, empty replica takes to join the ISR
// with the flag and without under one profile.
func timeClause(pp *ProfilePlan) string {
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
	c := fmt.Sprintf("a new, empty replica %s with the flag", joins(on))
	if ids := stallIDs(pp); len(ids) > 0 {
		c += " (" + strings.Join(ids, ", ") + ")"
	}
	offText := joins(off)
	if strings.HasPrefix(offText, "joins in") && strings.HasPrefix(joins(on), "joins in") {
		offText = strings.TrimPrefix(offText, "joins ")
	}
	return c + " and " + offText + " without"
}

// bytesClause says what a new replica copies from the leader with the flag
// and without under one profile ("" when one of them never joined).
func bytesClause(pp *ProfilePlan) string {
	off, on := &pp.Strategies[0], &pp.Strategies[1]
	if on.BytesFromLeader == nil || off.BytesFromLeader == nil {
		return "what it copies from the leader is not known: a replica never joined"
	}
	return fmt.Sprintf("it copies %s from the leader with the flag and %s without", formatBytes(on.BytesFromLeader.Median),
		formatBytes(off.BytesFromLeader.Median))
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
// profile is the KIP text, not a release, so it only speaks when no
// release profile was run, and the advice says so when it leaves it out.
func advice(r *Result) string {
	var on, off, other, left []string
	for _, pp := range r.Profiles {
		if !strings.HasPrefix(pp.Profile, "kafka-") {
			left = append(left, pp.Profile)
			continue
		}
		switch pp.Verdict {
		case "on":
			on = append(on, pp.Profile)
		case "off", "neither", "never-catches-up":
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
	why := ""
	if len(left) > 0 && len(on)+len(off)+len(other) > 0 {
		var verdicts []string
		for _, pp := range r.Profiles {
			if slices.Contains(left, pp.Profile) {
				verdicts = append(verdicts, pp.Verdict)
			}
		}
		why = fmt.Sprintf("; %s is left out as the KIP text, not a release: its verdict is %s", andList(left), strings.Join(verdicts, ", "))
	}
	// A release whose verdict is "either" is named beside the others: its
	// users may follow the advice or not.
	if len(other) > 0 && len(on)+len(off) > 0 {
		why = fmt.Sprintf("; with %s the flag changes catch-up by less than 10%%", strings.Join(other, ", ")) + why
	}
	switch {
	case len(on) == 0 && len(off) == 0 && len(other) == 0:
		return "Recommendation (no release profile was run): " + kipAdvice(r)
	case len(off) == 0 && len(on) > 0:
		return fmt.Sprintf("Recommendation: turn the flag on for this topic (%s%s)%s.", strings.Join(on, ", "), why, caveat)
	case len(on) == 0 && len(off) > 0:
		return fmt.Sprintf("Recommendation: leave the flag off for this topic (%s%s).", strings.Join(off, ", "), why)
	case len(on) > 0:
		// why, when the KIP text was run, is the bracket's only content.
		if why != "" {
			why = " (" + strings.TrimPrefix(why, "; ") + ")"
		}
		return fmt.Sprintf("Recommendation: it depends on your release: turn it on with %s, leave it off with %s%s.", strings.Join(on, ", "),
			strings.Join(off, ", "), why)
	}
	return fmt.Sprintf("Recommendation: either way (%s%s): the flag changes catch-up by less than 10%%.", strings.Join(other, ", "), why)
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
	part := func(field, text string) string {
		if env.Given[field] {
			return text
		}
		return text + " (a default: " + b.in.Names.Of(field) + ")"
	}
	s := fmt.Sprintf("This assumes %s, %s", part(FieldProduce, formatBytes(env.ProduceBytesPerSec)+"/s produced"),
		part(FieldReplication, formatBytes(env.ReplicationBytesPerSec)+"/s of replication bandwidth"))
	return s + fmt.Sprintf(" and the %s listed below.", plural(len(b.assume), "assumption"))
}
