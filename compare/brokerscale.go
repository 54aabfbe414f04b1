package compare

import (
	"encoding/json"
	"strconv"

	"tierfetch/config"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

// PartitionCountKey is the --vary key that sets the partition count of a
// broker-scale file with one partitions entry (its count).
const PartitionCountKey = "partition_count"

// partitionCountValue checks a --vary partition_count value: a whole number
// of partitions, 1..scenarios.PartitionsMax.
func partitionCountValue(v string) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 || n > scenarios.PartitionsMax {
		return config.Errorf("Vary", "{Vary} %s: want a whole number of partitions in 1..%d, got %q", PartitionCountKey, scenarios.PartitionsMax, v)
	}
	return nil
}

// applyPartitionCount sets the count of doc's one partitions entry.
func applyPartitionCount(doc map[string]json.RawMessage, sc *scenarios.Scenario, value string) error {
	if len(sc.Partitions) != 1 {
		return config.Errorf("Vary", "{Vary} %s: scenario %s has %d partitions entries; the key sets the count of a broker-scale file's one entry",
			PartitionCountKey, sc.Name, len(sc.Partitions))
	}
	var entries []map[string]json.RawMessage
	if err := json.Unmarshal(doc["partitions"], &entries); err != nil {
		return err
	}
	entries[0]["count"] = json.RawMessage(value)
	data, err := json.Marshal(entries)
	doc["partitions"] = data
	return err
}

// measure runs one strategy of a pair: a broker-scale file's metrics are
// the broker's as a whole (harness.MeasureBrokerScale).
func measure(sc *scenarios.Scenario, opt harness.Options) *harness.RunMetrics {
	if sc.BrokerScale() {
		m, _ := harness.MeasureBrokerScale(sc, opt)
		return m
	}
	m, _ := harness.Measure(sc, opt)
	return m
}

// brokerScale reports whether the comparison runs broker-scale files.
func (s *Setup) brokerScale() bool {
	return len(s.scenarios) > 0 && s.scenarios[0].BrokerScale()
}
