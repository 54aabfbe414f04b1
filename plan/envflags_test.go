package plan

import "testing"

// TestEnvSet: each setting parses its value and is recorded as given; a
// value that does not parse leaves the setting an assumption.
func TestEnvSet(t *testing.T) {
	e := DefaultEnv()
	for _, c := range []struct{ name, value string }{{FieldProduce, "2MiB"}, {FieldNetworkLatency, "2,9"},
		{FieldMetadataReady, "1500"}, {FieldReplicationFactor, "4"}} {
		if err := e.Set(c.name, c.value); err != nil || !e.Given[c.name] {
			t.Errorf("Set(%s, %s): %v, given %v", c.name, c.value, err, e.Given[c.name])
		}
	}
	if e.ProduceBytesPerSec != 2<<20 || e.NetworkLatencyMs != [2]int64{2, 9} || e.RemoteMetadataReadyMs != 1500 || e.ReplicationFactor != 4 {
		t.Errorf("values not set: %+v", e)
	}
	e = DefaultEnv()
	for _, c := range []struct{ name, value string }{{FieldRecordBytes, "lots"}, {FieldRemoteFetch, "x"}, {FieldMetadataReady, " 5"}} {
		if err := e.Set(c.name, c.value); err == nil || e.Given[c.name] {
			t.Errorf("Set(%s, %q): no error, or recorded as given", c.name, c.value)
		}
	}
}
