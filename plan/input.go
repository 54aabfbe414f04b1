package plan

import (
	"tierfetch/config"
	"tierfetch/model"
)

// Input is everything a plan is made from: the tools' saved output, the
// partition to plan for, what the tools cannot tell, and how to run.
type Input struct {
	Topic     string // "": the only topic in the offsets files
	Partition int32  // -1: the only partition of the topic in the offsets files
	Offsets   []*OffsetsFile
	Configs   *ConfigsFile // nil: Kafka's defaults
	LogDirs   *LogDirsFile // nil: Env.RecordBytes
	Topics    *TopicsFile  // nil: the leader and DefaultReplicationFactor-1 followers in sync
	Env       Env
	// SeedFrom..SeedTo are the seeds every profile and strategy runs (both
	// 0: DefaultSeedFrom..DefaultSeedTo).
	SeedFrom, SeedTo uint64
	// Profiles to run; none: every profile in model.Profiles, by name.
	Profiles []model.Profile
	// Fixes are the fixes of Kafka's code every run has on (--fix).
	Fixes model.Fixes
	// Workers run the simulations in parallel (results do not depend on it).
	Workers int
	// StepBudget is the simulated events the runs may spend; 0: StepBudget.
	StepBudget int64
	// SavePath is where the caller saves the scenario ("" when it does not),
	// for the commands the plan prints.
	SavePath string
	// Names spells the fields the plan's texts name (its caller's flags).
	Names config.Names
}

// Env is what Kafka's tools cannot tell: the workload and the environment.
// Given holds the fields the user set (by name, the Field* constants), and
// every other value is listed as an assumption.
type Env struct {
	ProduceBytesPerSec     int64
	ReplicationBytesPerSec int64
	RecordBytes            int64 // 0: from kafka-log-dirs.sh, else DefaultRecordBytes
	NetworkLatencyMs       [2]int64
	RemoteFetchMs          [2]int64
	RemoteUploadMs         [2]int64
	RemoteMetadataReadyMs  int64
	ReplicationFactor      int // without kafka-topics.sh output
	Given                  map[string]bool
}

// The Env fields a user sets (Set's names, Given's keys; a text names one
// as {ProduceBytesPerSec}).
const (
	FieldProduce           = "ProduceBytesPerSec"
	FieldReplication       = "ReplicationBytesPerSec"
	FieldRecordBytes       = "RecordBytes"
	FieldNetworkLatency    = "NetworkLatencyMs"
	FieldRemoteFetch       = "RemoteFetchMs"
	FieldRemoteUpload      = "RemoteUploadMs"
	FieldMetadataReady     = "RemoteMetadataReadyMs"
	FieldReplicationFactor = "ReplicationFactor"
)

// Defaults of what the tools cannot tell.
const (
	DefaultProduceBytesPerSec     = 1 << 20   // 1 MiB/s: a moderately busy partition
	DefaultReplicationBytesPerSec = 100 << 20 // the scenario default
	DefaultRecordBytes            = 1024
	DefaultReplicationFactor      = 3
	DefaultSeedFrom               = 1
	DefaultSeedTo                 = 5
)

// DefaultEnv returns the documented defaults: 1 MiB/s produced, 100 MiB/s of
// replication bandwidth, the scenario file's latencies (network 1-5 ms,
// remote fetch 20-200 ms, upload 50-500 ms), remote metadata ready at once,
// 1 KiB records unless kafka-log-dirs.sh tells, replication factor 3 unless
// kafka-topics.sh tells.
func DefaultEnv() Env {
	return Env{
		ProduceBytesPerSec:     DefaultProduceBytesPerSec,
		ReplicationBytesPerSec: DefaultReplicationBytesPerSec,
		NetworkLatencyMs:       [2]int64{1, 5},
		RemoteFetchMs:          [2]int64{20, 200},
		RemoteUploadMs:         [2]int64{50, 500},
		ReplicationFactor:      DefaultReplicationFactor,
		Given:                  map[string]bool{},
	}
}

// validate checks the environment's values.
func (e *Env) validate() error {
	switch {
	case e.ProduceBytesPerSec < 0 || e.ProduceBytesPerSec > 1<<40:
		return inputErr(FieldProduce, "must be in 0..%d, got %d", int64(1)<<40, e.ProduceBytesPerSec)
	case e.ReplicationBytesPerSec < 1 || e.ReplicationBytesPerSec > 1<<40:
		return inputErr(FieldReplication, "must be in 1..%d, got %d", int64(1)<<40, e.ReplicationBytesPerSec)
	case e.RecordBytes < 0 || e.RecordBytes > 1<<30 || e.Given[FieldRecordBytes] && e.RecordBytes == 0:
		return inputErr(FieldRecordBytes, "must be in 1..%d, got %d", 1<<30, e.RecordBytes)
	case e.RemoteMetadataReadyMs < 0 || e.RemoteMetadataReadyMs > 86_400_000:
		return inputErr(FieldMetadataReady, "must be in 0..86400000, got %d", e.RemoteMetadataReadyMs)
	case e.ReplicationFactor < 1 || e.ReplicationFactor > 32:
		return inputErr(FieldReplicationFactor, "must be in 1..32, got %d", e.ReplicationFactor)
	}
	for _, r := range []struct {
		flag string
		v    [2]int64
	}{{FieldNetworkLatency, e.NetworkLatencyMs}, {FieldRemoteFetch, e.RemoteFetchMs}, {FieldRemoteUpload, e.RemoteUploadMs}} {
		if r.v[0] < 0 || r.v[0] > r.v[1] || r.v[1] > 3_600_000 {
			return inputErr(r.flag, "must be MIN,MAX with 0 <= MIN <= MAX <= 3600000, got %d,%d", r.v[0], r.v[1])
		}
	}
	return nil
}
