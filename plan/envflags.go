package plan

import (
	"fmt"
	"strings"
)

// EnvFlag is a setting of Env that Kafka's tools cannot tell, as a command
// line sets it: its flag name and help.
type EnvFlag struct{ Name, Usage string }

// EnvFlags are the settings Env.Set takes, in the order the help lists them.
var EnvFlags = []EnvFlag{
	{FlagProduce, "bytes produced to the partition a second (default 1MiB)"},
	{FlagReplication, "replication bandwidth out of the leader, bytes a second (default 100MiB)"},
	{FlagRecordBytes, "bytes a record (default: from --log-dirs, else 1024)"},
	{FlagNetworkLatency, "network latency MIN,MAX in ms (default 1,5)"},
	{FlagRemoteFetch, "remote storage read latency MIN,MAX in ms (default 20,200)"},
	{FlagRemoteUpload, "segment upload time MIN,MAX in ms (default 50,500)"},
	{FlagMetadataReady, "ms until remote log metadata is ready after a broker starts, leads or is assigned (default 0)"},
	{FlagReplicationFactor, "replicas, all in sync, when --topics is not given (default 3)"},
}

// Set parses value for the setting named name (one of EnvFlags) and, when
// it parses, records the setting in Given: from then on it is the user's,
// not an assumption.
func (e *Env) Set(name, value string) error {
	var err error
	switch name {
	case FlagProduce:
		e.ProduceBytesPerSec, err = ParseBytes(value)
	case FlagReplication:
		e.ReplicationBytesPerSec, err = ParseBytes(value)
	case FlagRecordBytes:
		e.RecordBytes, err = ParseBytes(value)
	case FlagNetworkLatency:
		e.NetworkLatencyMs, err = ParseRangeMs(value)
	case FlagRemoteFetch:
		e.RemoteFetchMs, err = ParseRangeMs(value)
	case FlagRemoteUpload:
		e.RemoteUploadMs, err = ParseRangeMs(value)
	case FlagMetadataReady:
		_, err = fmt.Sscan(value, &e.RemoteMetadataReadyMs)
		if err != nil || strings.TrimSpace(value) != value {
			err = fmt.Errorf("want an integer, got %q", value)
		}
	case FlagReplicationFactor:
		_, err = fmt.Sscan(value, &e.ReplicationFactor)
	default:
		panic("plan: Env.Set of an unknown setting " + name)
	}
	if err != nil {
		return err
	}
	e.Given[name] = true
	return nil
}
