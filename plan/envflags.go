package plan

import (
	"fmt"
	"strings"
)

// Set parses value for the Env field named field (a Field* constant) and,
// when it parses, records the setting in Given: from then on it is the
// user's, not an assumption.
func (e *Env) Set(field, value string) error {
	var err error
	switch field {
	case FieldProduce:
		e.ProduceBytesPerSec, err = ParseBytes(value)
	case FieldReplication:
		e.ReplicationBytesPerSec, err = ParseBytes(value)
	case FieldRecordBytes:
		e.RecordBytes, err = ParseBytes(value)
	case FieldNetworkLatency:
		e.NetworkLatencyMs, err = ParseRangeMs(value)
	case FieldRemoteFetch:
		e.RemoteFetchMs, err = ParseRangeMs(value)
	case FieldRemoteUpload:
		e.RemoteUploadMs, err = ParseRangeMs(value)
	case FieldMetadataReady:
		_, err = fmt.Sscan(value, &e.RemoteMetadataReadyMs)
		if err != nil || strings.TrimSpace(value) != value {
			err = fmt.Errorf("want an integer, got %q", value)
		}
	case FieldReplicationFactor:
		_, err = fmt.Sscan(value, &e.ReplicationFactor)
	default:
		panic("plan: Env.Set of an unknown field " + field)
	}
	if err != nil {
		return err
	}
	e.Given[field] = true
	return nil
}
