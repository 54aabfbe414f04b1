package scenarios

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The scenario format's reference, docs/reference/scenario-format.md, is
// what a user of a fresh clone reads: these tests keep it complete and its
// defaults, ranges and examples true to the parser.

const referenceDoc = "../docs/reference/scenario-format.md"

func readReference(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(referenceDoc)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// jsonNames returns the JSON names of a struct type's fields.
func jsonNames(v any) []string {
	var out []string
	typ := reflect.TypeOf(v)
	for i := range typ.NumField() {
		if name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// section returns the text of doc from the heading that starts with head to
// the next heading of the same level.
func section(t *testing.T, doc, head string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n"+head)
	if !ok {
		t.Fatalf("%s: no section %q", referenceDoc, head)
	}
	level := head[:strings.IndexByte(head, ' ')+1]
	if i := strings.Index(rest, "\n"+level); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

var (
	backticked = regexp.MustCompile("`([a-z0-9_.-]+)`")
	tableRow   = regexp.MustCompile(`(?m)^ *\| *([^|]+?) *\| *([^|]+?) *\| *([^|]+?) *\|`)
)

// configRows returns, for each config key a table row of text names in its
// first cell, the row's second and third cells (default, range).
func configRows(text string) map[string][2]string {
	rows := map[string][2]string{}
	for _, m := range tableRow.FindAllStringSubmatch(text, -1) {
		for _, k := range backticked.FindAllStringSubmatch(m[1], -1) {
			rows[k[1]] = [2]string{m[2], m[3]}
		}
	}
	return rows
}

// TestScenarioReferenceIsComplete: every field of the file, every config
// key with its default and range, every event type with its fields, every
// set_config key and every remote segment state is in the reference.
func TestScenarioReferenceIsComplete(t *testing.T) {
	doc := readReference(t)
	has := func(what, name string) {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("%s: %s `%s` is not documented", referenceDoc, what, name)
		}
	}
	for _, v := range []any{Scenario{}, Initial{}, SegmentSpec{}, Event{}, Schedule{}, Failure{}, FailureViolation{}, PartitionSpec{}} {
		for _, n := range jsonNames(v) {
			has(reflect.TypeOf(v).Name()+" field", n)
		}
	}
	events := section(t, doc, "## Events")
	for _, typ := range eventTypes {
		row := regexp.MustCompile("(?m)^\\| `" + typ + "` \\| ([^|]*) \\|").FindStringSubmatch(events)
		if row == nil {
			t.Errorf("%s: event type %s has no row in the events table", referenceDoc, typ)
			continue
		}
		for _, f := range eventUses[typ] {
			if f != "topic" && f != "partition" && !strings.Contains(row[1], "`"+f+"`") {
				t.Errorf("%s: the %s row does not name its field %s", referenceDoc, typ, f)
			}
		}
	}
	setConfig := section(t, doc, "### set_config")
	for _, k := range append(append([]string(nil), setConfigBoolKeys...), keysOf(setConfigIntChecks)...) {
		if !strings.Contains(setConfig, "`"+k+"`") {
			t.Errorf("%s: set_config key %s is not documented", referenceDoc, k)
		}
	}
	for _, st := range RemoteSegmentStates {
		has("remote segment state", st)
	}

	rows := configRows(section(t, doc, "## Config"))
	for k, v := range configRows(section(t, doc, "## Broker scale")) {
		rows[k] = v
	}
	defaults := map[string]json.RawMessage{}
	c := DefaultConfig()
	cv := reflect.ValueOf(c)
	for i := range cv.NumField() {
		name, _, _ := strings.Cut(cv.Type().Field(i).Tag.Get("json"), ",")
		if f := cv.Field(i); f.Kind() != reflect.Pointer || !f.IsNil() {
			defaults[name], _ = json.Marshal(f.Interface())
		}
	}
	defaults["remote_copy_lag_bytes"] = json.RawMessage(big.NewInt(c.copyLagBytes()).String())
	defaults["min_insync_replicas"] = json.RawMessage(big.NewInt(c.minInsyncReplicas()).String())
	for _, key := range jsonNames(Config{}) {
		row, ok := rows[key]
		if !ok {
			t.Errorf("%s: config key %s has no row with its default and range", referenceDoc, key)
			continue
		}
		checkDocDefault(t, key, row[0], defaults[key])
		if r, ok := ConfigRanges[key]; ok {
			checkDocRange(t, key, row[1], r)
		}
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// checkDocDefault compares a documented default with DefaultConfig's, when the
// cell is a JSON value (a sentence such as "set by the strategy" is not).
func checkDocDefault(t *testing.T, key, cell string, want json.RawMessage) {
	t.Helper()
	v := strings.Trim(strings.Fields(cell + " x")[0], "`")
	if strings.HasPrefix(cell, "`[") {
		v = strings.Trim(cell, "`")
	}
	var doc, code any
	if json.Unmarshal([]byte(v), &doc) != nil {
		return
	}
	if want == nil {
		t.Errorf("%s: config key %s is documented with default %s, but DefaultConfig leaves it unset", referenceDoc, key, v)
		return
	}
	if err := json.Unmarshal(want, &code); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc, code) {
		t.Errorf("%s: config key %s is documented with default %s, DefaultConfig has %s", referenceDoc, key, v, want)
	}
}

// number evaluates the range cells' numbers: 1, -2, 10^12, 2^31-1.
var number = regexp.MustCompile(`-?\d+(?:\^\d+)?(?:-1)?`)

func evalNumber(s string) *big.Int {
	minus1 := false
	if strings.Contains(s, "^") {
		s, minus1 = strings.CutSuffix(s, "-1")
	}
	base, exp, pow := strings.Cut(s, "^")
	n, _ := new(big.Int).SetString(base, 10)
	if pow {
		e, _ := new(big.Int).SetString(exp, 10)
		n.Exp(n, e, nil)
	}
	if minus1 {
		n.Sub(n, big.NewInt(1))
	}
	return n
}

// checkDocRange compares a documented range (its first and last number) with
// ConfigRanges.
func checkDocRange(t *testing.T, key, cell string, r [2]int64) {
	t.Helper()
	nums := number.FindAllString(cell, -1)
	if len(nums) < 2 {
		t.Errorf("%s: config key %s's range %q names no min..max", referenceDoc, key, cell)
		return
	}
	lo, hi := evalNumber(nums[0]), evalNumber(nums[len(nums)-1])
	if lo.Cmp(big.NewInt(r[0])) != 0 || hi.Cmp(big.NewInt(r[1])) != 0 {
		t.Errorf("%s: config key %s is documented as %s..%s (%q), ConfigRanges has %d..%d", referenceDoc, key, lo, hi, cell, r[0], r[1])
	}
}

// TestScenarioReferenceExamplesParse: the documents' scenario examples
// (json blocks tagged scenario, or written to a .json file for the
// commands after them) are valid scenario files.
func TestScenarioReferenceExamplesParse(t *testing.T) {
	docs, err := filepath.Glob("../docs/*/*.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	fence := regexp.MustCompile("(?ms)^```json ([^\n]*)\n(.*?)^```")
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fence.FindAllStringSubmatch(string(data), -1) {
			tags := strings.Fields(m[1])
			if !contains(tags, "scenario") && !strings.HasSuffix(m[1], ".json") {
				continue
			}
			n++
			if _, err := Parse([]byte(m[2])); err != nil {
				t.Errorf("%s: the example tagged %q does not parse: %v", d, m[1], err)
			}
		}
	}
	if n < 3 {
		t.Errorf("found %d scenario examples in docs/, want at least 3", n)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
