package harness

import (
	"regexp"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// pointerText is how go-cmp prints an address (only for cyclic or shared
// references): the address differs from process to process.
var pointerText = regexp.MustCompile(`⟪0x[0-9a-f]+⟫`)

// StateDiff is the state diff a failure report prints (-a +b), the same bytes
// from any process of the same binary. go-cmp's text is unstable on purpose:
// each process picks at random between spaces and no-break spaces (U+00A0)
// after the -/+ markers, and prints addresses. StateDiff makes every marker
// space a plain space and hides addresses, so reports stay reproducible.
func StateDiff(a, b any) string {
	d := cmp.Diff(a, b)
	d = strings.ReplaceAll(d, "\u00a0", " ")
	return pointerText.ReplaceAllString(d, "⟪ptr⟫")
}
