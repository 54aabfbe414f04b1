package plan

import (
	"errors"
	"testing"
)

// TestEnvRangesAtTheirEdges: a latency, remote read or upload range takes
// 0, MIN equal to MAX and a MAX of an hour, and refuses one past each,
// naming the field.
func TestEnvRangesAtTheirEdges(t *testing.T) {
	for _, c := range []struct {
		v  [2]int64
		ok bool
	}{{[2]int64{0, 0}, true}, {[2]int64{7, 7}, true}, {[2]int64{0, 3_600_000}, true},
		{[2]int64{-1, 5}, false}, {[2]int64{8, 7}, false}, {[2]int64{0, 3_600_001}, false}} {
		for _, field := range []string{FieldNetworkLatency, FieldRemoteFetch, FieldRemoteUpload} {
			e := DefaultEnv()
			switch field {
			case FieldNetworkLatency:
				e.NetworkLatencyMs = c.v
			case FieldRemoteFetch:
				e.RemoteFetchMs = c.v
			default:
				e.RemoteUploadMs = c.v
			}
			err := e.validate()
			var ie *InputError
			if (err == nil) != c.ok || err != nil && (!errors.As(err, &ie) || ie.Field != field) {
				t.Errorf("%s %v: %v, want ok %v", field, c.v, err, c.ok)
			}
		}
	}
}
