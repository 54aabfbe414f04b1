package compare

import (
	"slices"
	"strings"
	"testing"
)

// TestVaryTakesKafkasNamesAndUnits: --vary takes Kafka's dotted name for a
// config field and byte counts with a unit, as plan does, written as the
// integers they are; a mistyped key gets the nearest one.
func TestVaryTakesKafkasNamesAndUnits(t *testing.T) {
	key, values, err := parseVary("local.retention.bytes=1MiB, 1.5 GiB,-2,4096")
	want := []string{"1048576", "1610612736", "-2", "4096"}
	if err != nil || key != "local_retention_bytes" || !slices.Equal(values, want) {
		t.Errorf("parseVary: %q %v %v, want local_retention_bytes %v", key, values, err, want)
	}
	if _, _, err := parseVary("remote.log.manager.task.interval.ms=1MiB"); err == nil {
		t.Errorf("a unit on a field that is not a byte count: no error")
	}
	if _, _, err := parseVary("local.retention.byte=1MiB"); err == nil || !strings.Contains(err.Error(), "did you mean local_retention_bytes?") {
		t.Errorf("mistyped key: %v", err)
	}
}
