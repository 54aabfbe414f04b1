package harness

import (
	"strings"
	"testing"
)

// TestParseProfileList: names in order, spaces around each allowed; an
// unknown name, or one given twice, is an error naming it.
func TestParseProfileList(t *testing.T) {
	got, err := ParseProfileList("Profile", "kafka-4.3, kip")
	if err != nil || len(got) != 2 || got[0].Name() != "kafka-4.3" || got[1].Name() != "kip" {
		t.Errorf("kafka-4.3, kip: %v, %v", got, err)
	}
	for in, want := range map[string]string{
		"kip,kafka-4.3,kip": `profile "kip" given twice`,
		"kip, kip":          `profile "kip" given twice`,
		"kip,nope":          `want one of kafka-4.3, kafka-trunk, kip, got "nope"`,
	} {
		if _, err := ParseProfileList("Profiles", in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
