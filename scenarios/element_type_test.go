package scenarios

import (
	"strings"
	"testing"
)

// TestArrayElementTypeErrors: an element of an integer array that is not an
// integer of the field's type (a fraction, a string, a number past the type)
// is refused naming that element, as a null element is, never as "expected an
// array" of a value that is one.
func TestArrayElementTypeErrors(t *testing.T) {
	one := `{"topic": "t", "replicas": [0, 1]}`
	for _, c := range []struct{ name, in, want string }{
		{"reassign partition past int32", bs(one, `{"type": "reassign", "topic": "t", "partitions": [0, 9223372036854775807], "replicas": [2]}`, ""),
			"events[0].partitions[1]: expected an integer, got number 9223372036854775807"},
		{"reassign partition fraction", bs(one, `{"type": "reassign", "topic": "t", "partitions": [1.5], "replicas": [2]}`, ""),
			"events[0].partitions[0]: expected an integer, got number 1.5"},
		{"reassign partition string", bs(one, `{"type": "reassign", "topic": "t", "partitions": [0, "1"], "replicas": [2]}`, ""),
			"events[0].partitions[1]: expected an integer, got string"},
		{"reassign replica past int", bs(one, `{"type": "reassign", "topic": "t", "partitions": [0], "replicas": [2, 9223372036854775808]}`, ""),
			"events[0].replicas[1]: expected an integer, got number 9223372036854775808"},
		{"entry replica fraction", bs(`{"topic": "t", "replicas": [0, 1.5]}`, "", ""),
			"partitions[0].replicas[1]: expected an integer, got number 1.5"},
		{"rolling restart broker string", bs(one, `{"type": "rolling_restart", "brokers": [1, "2"], "down_ms": 5}`, ""),
			"events[0].brokers[1]: expected an integer, got string"},
		{"one-partition replicas", `{"brokers": 3, "duration_ms": 1000, "replicas": [0, 1e308]}`,
			"replicas[1]: expected an integer, got number 1e308"},
	} {
		_, err := Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// A value that is not an array is still named as the field.
	if _, err := Parse([]byte(bs(one, `{"type": "reassign", "topic": "t", "partitions": 3, "replicas": [2]}`, ""))); err == nil ||
		!strings.Contains(err.Error(), "events[0].partitions: expected an array of integers, got number") {
		t.Errorf("partitions not an array: got %v", err)
	}
}
