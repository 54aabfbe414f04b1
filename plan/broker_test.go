package plan

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
)

// paymentsInput is brokerInput of topic payments alone (48 of broker 2's
// partitions) under kafka-4.3.
func paymentsInput(t testing.TB) BrokerInput {
	t.Helper()
	in := brokerInput(t)
	for name := range in.Topics.Topics {
		if name != "payments" {
			delete(in.Topics.Topics, name)
		}
	}
	in.Profiles = []model.Profile{model.Profiles["kafka-4.3"]}
	return in
}

// brokerInput reads testdata/broker: a six-broker cluster (ids 1..6), four
// topics, broker 2 holding 300 partitions.
func brokerInput(t testing.TB) BrokerInput {
	t.Helper()
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", "broker", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	ld, err := ParseLogDirs("log-dirs.txt", read("log-dirs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tf, err := ParseTopics("topics.txt", read("topics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := ParseConfigs("configs.txt", read("configs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return BrokerInput{Broker: 2, LogDirs: ld, Topics: tf, Configs: cf, Env: DefaultEnv(), Workers: 2}
}

// TestBrokerPlanScenario: the scenario a broker plan builds holds every
// partition with a replica on the broker, as kafka-topics.sh lists them
// (counted here from the file's own lines), with the leader first, and
// each leader's log as large as kafka-log-dirs.sh says (to a record); the
// broker is replaced at 0, the scenario's ids being the cluster's (1..6,
// with an idle b0).
func TestBrokerPlanScenario(t *testing.T) {
	in := brokerInput(t)
	_, sc, _, err := buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join("testdata", "broker", "topics.txt"))
	line := regexp.MustCompile(`Topic: (\S+)\s+Partition: (\d+)\s+Leader: (\d+)\s+Replicas: ([\d,]+)`)
	type want struct {
		leader   int
		replicas []int
	}
	wants := map[string]want{}
	sc2 := bufio.NewScanner(bytes.NewReader(data))
	for sc2.Scan() {
		m := line.FindStringSubmatch(sc2.Text())
		if m == nil {
			continue
		}
		var reps []int
		for _, r := range strings.Split(m[4], ",") {
			n, _ := strconv.Atoi(r)
			reps = append(reps, n)
		}
		if slices.Contains(reps, 2) {
			l, _ := strconv.Atoi(m[3])
			wants[m[1]+"-"+m[2]] = want{l, reps}
		}
	}
	if len(sc.Partitions) != len(wants) || len(wants) != 300 {
		t.Fatalf("%d partitions in the scenario, %d on broker 2 in topics.txt (want 300)", len(sc.Partitions), len(wants))
	}
	if sc.Brokers != 7 || len(sc.Events) != 1 || sc.Events[0].Type != scenarios.EventReplaceBroker || *sc.Events[0].Broker != 2 {
		t.Fatalf("brokers %d, events %+v: want 7 brokers (0..6) and replace_broker of b2", sc.Brokers, sc.Events)
	}
	for _, p := range sc.Partitions {
		name := p.Topic + "-" + strconv.Itoa(int(p.Partition))
		w, ok := wants[name]
		if !ok {
			t.Fatalf("%s is not on broker 2", name)
		}
		if p.Replicas[0] != w.leader || !sameSet(p.Replicas, w.replicas) {
			t.Errorf("%s: replicas %v, want %v with leader %d first", name, p.Replicas, w.replicas, w.leader)
		}
		tp := TopicPartition{Topic: p.Topic, Partition: p.Partition}
		var size int64
		for _, r := range in.LogDirs.Replicas[tp] {
			if int(r.Broker) == w.leader {
				size = r.Size
			}
		}
		rb := sc.Config.RecordBytes
		if got := localRecords(p.Initial); got != size/rb {
			t.Errorf("%s: the leader's local log holds %d records, want its size %d / %d", name, got, size, rb)
		}
	}
}

func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// localRecords is the records of an initial log's local segments.
func localRecords(in *scenarios.Initial) int64 {
	if in == nil {
		return 0
	}
	n := int64(0)
	for _, s := range in.LocalSegments {
		n += (s.EndOffset - s.BaseOffset + 1) * max(1, s.Count)
	}
	return n
}

// TestBrokerPlanBadInput: what a broker plan cannot use is refused with
// the flag or the file named, never a panic.
func TestBrokerPlanBadInput(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(in *BrokerInput)
		want   string
	}{
		{"no topics", func(in *BrokerInput) { in.Topics = nil }, "Topics: simrun plan Broker needs kafka-topics.sh"},
		{"no log dirs", func(in *BrokerInput) { in.LogDirs = nil }, "LogDirs: simrun plan Broker needs kafka-log-dirs.sh"},
		{"unknown broker", func(in *BrokerInput) { in.Broker = 9 }, "Broker: broker 9 holds no replica in topics.txt (its brokers: 1,2,3,4,5,6)"},
		{"a partition missing from log dirs", func(in *BrokerInput) {
			delete(in.LogDirs.Replicas, TopicPartition{Topic: "orders", Partition: 0})
		}, "no replica of orders-0"},
		{"seeds", func(in *BrokerInput) { in.SeedFrom, in.SeedTo = 5, 2 }, "Seeds: want A..B"},
	} {
		in := brokerInput(t)
		c.change(&in)
		_, _, _, err := MakeBroker(in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// TestBrokerPlanAnswers: the plan of testdata/broker's topic payments (48
// partitions on broker 2; the whole broker is BenchmarkBrokerPlan's)
// answers flag off and on, and names the variant that helps most; its
// numbers follow the rule: flag off copies each leader's whole local log
// (the sizes of kafka-log-dirs.sh, to a record), flag on no more; the best
// variant is the one with the smallest flag-on time.
func TestBrokerPlanAnswers(t *testing.T) {
	in := paymentsInput(t)
	r, sc, _, err := MakeBroker(in)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, p := range sc.Partitions {
		want += localRecords(p.Initial) * sc.Config.RecordBytes
	}
	if len(r.Profiles) != 1 || r.Profiles[0].Off.BytesFromLeaders != want || r.Profiles[0].On.BytesFromLeaders > want {
		t.Fatalf("profiles %+v: want flag off to copy %d bytes and flag on no more", r.Profiles, want)
	}
	best := -1
	for i, v := range r.Variants[1:] {
		if v.On.RestoredMs != nil && *v.On.RestoredMs < *r.Variants[0].On.RestoredMs &&
			(best < 0 || *v.On.RestoredMs < *r.Variants[best].On.RestoredMs) {
			best = i + 1
		}
	}
	if r.Best != best {
		t.Errorf("best variant %d, want %d (the smallest flag-on time): %+v", r.Best, best, r.Variants)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Replace broker 2 with an empty one: 48 partitions (48 tiered) of topic payments", "  kafka-4.3 ", "helps most", "Recommendation: "} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the plan lacks %q:\n%s", s, text.String())
		}
	}
}

func TestSeedsPhraseNamesOneSeedAsSuch(t *testing.T) {
	for in, want := range map[string]string{
		"1..1": "seed 1", "7": "seed 7", "1..5": "median of seeds 1..5", "1,3": "median of seeds 1,3",
	} {
		if got := seedsPhrase(in); got != want {
			t.Errorf("seedsPhrase(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBrokerPlanWithinBudget: a broker plan's runs spend at most its work
// budget, each an equal share; runs their share stops before the broker is
// back say "not back" (not failed) and the plan notes how many, while a
// budget the runs do not reach changes nothing.
func TestBrokerPlanWithinBudget(t *testing.T) {
	in := paymentsInput(t)
	text := func(r *BrokerResult) string {
		var b bytes.Buffer
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	free, _, _, err := MakeBroker(in)
	if err != nil {
		t.Fatal(err)
	}
	jobs := 2 * len(free.Variants) // flag off and on of the base and of each knob, one seed
	in.StepBudget = int64(jobs) * 200
	short, _, _, err := MakeBroker(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range append(short.Profiles, short.Variants...) {
		for _, s := range []BrokerSide{row.Off, row.On} {
			if s.RestoredMs != nil || s.Failed != 0 {
				t.Errorf("%s: restored %v, %d failed with 200 steps a run; want not back, none failed", row.Name, s.RestoredMs, s.Failed)
			}
		}
	}
	want := fmt.Sprintf("the work budget (200 simulated events a run, %d over all runs) stopped %d of %d runs before the broker was back", jobs*200, jobs, jobs)
	if got := text(short); !strings.Contains(got, want) {
		t.Errorf("the plan lacks %q:\n%s", want, got)
	}
	in.StepBudget = BrokerStepBudget
	roomy, _, _, err := MakeBroker(in)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := text(free), text(roomy); a != b || strings.Contains(a, "work budget") {
		t.Errorf("a budget the runs do not reach changed the plan or is noted:\n%s\n---\n%s", a, b)
	}
}

// TestBrokerBudgetGrowsWithSeeds: the default budget is BrokerStepBudget
// a seed, so that more seeds give each run the same share; one given is
// the plan's whole.
func TestBrokerBudgetGrowsWithSeeds(t *testing.T) {
	for _, c := range []struct {
		from, to    uint64
		given, want int64
	}{{1, 1, 0, BrokerStepBudget}, {3, 7, 0, 5 * BrokerStepBudget}, {1, 100, 0, 100 * BrokerStepBudget}, {1, 5, 1000, 1000}} {
		in := BrokerInput{SeedFrom: c.from, SeedTo: c.to, StepBudget: c.given}
		if got := in.brokerBudget(); got != c.want {
			t.Errorf("seeds %d..%d, budget %d: %d, want %d", c.from, c.to, c.given, got, c.want)
		}
	}
}

// TestBrokerShareFromSize: a run's share of the work budget is an equal
// share of BrokerStepBudget a seed, or what the broker's size needs when
// that is more (a step a MiB its leaders hold, brokerStepsPerPartition a
// partition), at most BrokerRunStepsMax; a given StepBudget is shared
// equally whatever the size.
func TestBrokerShareFromSize(t *testing.T) {
	parts := func(n int, local int64) *brokerBuilder {
		b := &brokerBuilder{}
		for range n {
			b.parts = append(b.parts, brokerPart{local: local})
		}
		return b
	}
	small, big := parts(300, 200<<20), parts(4000, 1<<30)
	if got, want := big.runStepsNeeded(), int64(4000*1024+4000*brokerStepsPerPartition); got != want {
		t.Errorf("4,000 partitions of 1 GiB need %d steps, want %d", got, want)
	}
	if got := parts(20_000, 1<<52).runStepsNeeded(); got != BrokerRunStepsMax {
		t.Errorf("20,000 partitions of 4 PiB need %d steps, want the cap %d", got, BrokerRunStepsMax)
	}
	in := BrokerInput{SeedFrom: 1, SeedTo: 1}
	if got, want := in.brokerShare(14, small.runStepsNeeded()), int64(BrokerStepBudget/14); got != want {
		t.Errorf("a small broker's share %d, want the equal share %d", got, want)
	}
	if got, want := in.brokerShare(14, big.runStepsNeeded()), big.runStepsNeeded(); got != want {
		t.Errorf("a large broker's share %d, want what it needs, %d", got, want)
	}
	in.StepBudget = 14 * 200
	if got := in.brokerShare(14, big.runStepsNeeded()); got != 200 {
		t.Errorf("a given budget's share %d, want 200", got)
	}
}
