package fuzz

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// fuzzMaxSteps is the work budget of each FuzzRun run: small, so that the
// fuzzer tries many scenarios, and a run that reaches it is fine (bounded).
const fuzzMaxSteps = 20_000

// FuzzRun runs the simulation on fuzzed scenarios with a work budget: any
// panic fails it, and so does a safety violation that no known finding
// explains. (Liveness is left to the sweeps: a fuzzed heal_ms or bandwidth
// may simply be too short to catch up, which is the scenario's doing, not
// the model's.) An input that parses as a scenario file runs as it is; any
// other input drives fuzzScenario, which edits a generated scenario with
// the input's bytes (edge values of the config ranges, extra events), so
// that nearly every input runs. The second input, which, picks the
// profile and strategy of the one run an execution makes (six runs an
// execution made the fuzzer's coverage-instrumented executions take about
// half a second each, and its minimizing of a new input a minute in which
// it printed "0/sec"). The corpus starts from every named scenario and a
// few generated ones, spread over the profiles and strategies.
//
//	go test ./fuzz -run '^$' -fuzz FuzzRun -fuzztime 10m -fuzzminimizetime 10s
func FuzzRun(f *testing.F) {
	var inputs [][]byte
	for _, sc := range scenarios.Named() {
		data, err := sc.Marshal()
		if err != nil {
			f.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	for seed := uint64(1); seed <= 8; seed++ {
		data, err := gen.Generate(seed).Marshal()
		if err != nil {
			f.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	for i, data := range inputs {
		f.Add(data, uint8(i))
	}
	names := slices.Sorted(maps.Keys(model.Profiles))
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		sc, err := scenarios.Parse(data)
		if err != nil {
			sc = fuzzScenario(data)
		}
		if sc == nil || harness.CheckBudget(sc, fuzzMaxSteps) != nil {
			return
		}
		name := names[int(which)%len(names)]
		st := harness.Strategies[int(which)/len(names)%len(harness.Strategies)]
		res := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: st, Profile: model.Profiles[name], MaxSteps: fuzzMaxSteps})
		switch res.Outcome {
		case harness.OutcomeOK, harness.OutcomeBudget, harness.OutcomeLiveness:
		case harness.OutcomeSafety:
			if res.Violation.Kind == "" {
				t.Fatalf("%s %s: unknown safety violation %s at step %d: %s\nscenario:\n%s",
					name, st, res.Violation.Invariant, res.Violation.Step, res.Violation.Message, data)
			}
		default:
			t.Fatalf("%s %s: outcome %q", name, st, res.Outcome)
		}
	})
}

// fuzzBytes hands out the bytes of a fuzz input as small numbers, zeros
// once it runs out.
type fuzzBytes struct{ data []byte }

func (b *fuzzBytes) next() byte {
	if len(b.data) == 0 {
		return 0
	}
	c := b.data[0]
	b.data = b.data[1:]
	return c
}

func (b *fuzzBytes) pick(n int) int { return int(b.next()) % n }

// edgeValues are the values fuzzScenario tries in a config field of range
// lo..hi: its ends, near them, and a few ordinary ones.
func edgeValues(lo, hi int64) []int64 {
	return []int64{lo, lo + 1, hi, hi - 1, hi / 2, 1000, 30_000, 1 << 20}
}

// fuzzScenario builds a scenario from arbitrary bytes: a generated one (the
// first bytes pick the seed), some config fields set to edge values of their
// ranges, and events appended; nil when the edits make it invalid.
func fuzzScenario(data []byte) *scenarios.Scenario {
	b := &fuzzBytes{data: data}
	sc := gen.Generate(uint64(b.next())<<8 | uint64(b.next()))
	cfg := map[string]*int64{
		"segment_bytes": &sc.Config.SegmentBytes, "record_bytes": &sc.Config.RecordBytes,
		"replica_fetch_max_bytes": &sc.Config.ReplicaFetchMaxBytes, "replica_fetch_backoff_ms": &sc.Config.ReplicaFetchBackoffMs,
		"replica_fetch_wait_max_ms": &sc.Config.ReplicaFetchWaitMaxMs, "replica_lag_time_max_ms": &sc.Config.ReplicaLagTimeMaxMs,
		"remote_log_manager_task_interval_ms": &sc.Config.RemoteLogManagerTaskIntervalMs,
		"local_retention_bytes":               &sc.Config.LocalRetentionBytes, "local_retention_ms": &sc.Config.LocalRetentionMs,
		"retention_bytes": &sc.Config.RetentionBytes, "retention_ms": &sc.Config.RetentionMs,
		"replication_bytes_per_sec": &sc.Config.ReplicationBytesPerSec, "remote_metadata_ready_ms": &sc.Config.RemoteMetadataReadyMs,
		"replica_socket_timeout_ms": &sc.Config.ReplicaSocketTimeoutMs, "log_retention_check_interval_ms": &sc.Config.LogRetentionCheckIntervalMs,
	}
	keys := slices.Sorted(maps.Keys(cfg))
	for range b.pick(4) {
		k := keys[b.pick(len(keys))]
		r := scenarios.ConfigRanges[k]
		vals := edgeValues(r[0], r[1])
		*cfg[k] = max(r[0], min(r[1], vals[b.pick(len(vals))]))
	}
	for range b.pick(8) {
		at := int64(b.next()) * sc.DurationMs / 256
		broker := b.pick(sc.Brokers)
		var e scenarios.Event
		switch b.pick(9) {
		case 0:
			e = scenarios.Event{Type: scenarios.EventProduce, Records: 1 + int64(b.next())*int64(b.next()), OverMs: int64(b.next()) * 1000}
		case 1:
			e = scenarios.Event{Type: scenarios.EventElectLeader, Broker: &broker}
		case 2:
			e = scenarios.Event{Type: scenarios.EventCrash, Broker: &broker}
		case 3:
			e = scenarios.Event{Type: scenarios.EventRestart, Broker: &broker}
		case 4:
			e = scenarios.Event{Type: scenarios.EventDeleteRecords, BeforeOffset: int64(b.next()) * int64(b.next()) * 10}
		case 5:
			e = scenarios.Event{Type: scenarios.EventNetworkPartition, Brokers: []int{broker}, DurationMs: 1 + int64(b.next())*500}
		case 6:
			e = scenarios.Event{Type: scenarios.EventRemoteOutage, DurationMs: 1 + int64(b.next())*500}
		case 7:
			e = scenarios.Event{Type: scenarios.EventConsume, FromOffset: int64(b.next()) * 100}
		case 8:
			keys := []string{"remote_storage_enable", "remote_log_copy_disable", "remote_log_delete_on_disable",
				"follower_fetch_last_tiered_offset_enable", "retention_ms", "local_retention_bytes", "remote_log_manager_task_interval_ms"}
			k := keys[b.pick(len(keys))]
			e = scenarios.Event{Type: scenarios.EventSetConfig, Key: k, Value: json.RawMessage(fmt.Sprint(b.next()%2 == 0))}
			if scenarios.SetConfigInt(k) {
				e.Value = json.RawMessage(fmt.Sprint(1 + int64(b.next())*int64(b.next())*100))
			}
		}
		e.AtMs = at
		sc.Events = append(sc.Events, e)
	}
	if sc.Validate() != nil {
		return nil
	}
	sc.Normalize()
	return sc
}
