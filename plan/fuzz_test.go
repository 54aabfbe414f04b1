package plan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseToolOutput: any bytes given to any parser give a result or a
// ToolError naming the file, never a panic. The seeds are the hand-written
// cluster outputs.
func FuzzParseToolOutput(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "cluster", "*.txt"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("Skip getting offsets for topic-partition a-1 due to error: x\norders:0:\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error) {
			var te *ToolError
			if err != nil && (!errors.As(err, &te) || te.File != "f.txt") {
				t.Fatalf("error %v is not a ToolError naming the file", err)
			}
		}
		_, err := ParseOffsets("f.txt", TimeLatest, data)
		check(err)
		_, err = ParseConfigs("f.txt", data)
		check(err)
		_, err = ParseLogDirs("f.txt", data)
		check(err)
		_, err = ParseTopics("f.txt", data)
		check(err)
	})
}

// FuzzMake: any offsets, segment size, record size and produce rate give a
// plan or a ToolError/InputError, never a panic or an invalid scenario.
func FuzzMake(f *testing.F) {
	f.Add(int64(0), int64(20480), int64(71680), int64(70655), int64(70656), int64(1<<20), int64(1024), int64(1<<20), uint8(0xff))
	f.Add(int64(5000), int64(5000), int64(9000), int64(3999), int64(-1), int64(1<<20), int64(1024), int64(0), uint8(0x3f))
	f.Add(int64(0), int64(0), int64(0), int64(-1), int64(-1), int64(1<<30), int64(0), int64(0), uint8(0x01))
	f.Fuzz(func(t *testing.T, lso, llso, hw, lt, ep, segBytes, recordBytes, produce int64, bits uint8) {
		if hw > 1<<40 || hw-lso > 1<<30 || segBytes > 1<<31 || produce > 1<<30 {
			t.Skip() // keep each plan small; the limits themselves are tested elsewhere
		}
		values := map[Time]int64{TimeEarliest: lso, TimeLatest: hw}
		if bits&1 != 0 {
			values[TimeEarliestLocal] = llso
		}
		if bits&2 != 0 {
			values[TimeLatestTiered] = lt
		}
		if bits&4 != 0 {
			values[TimeEarliestPendingUpload] = ep
		}
		overrides := map[string]string{"segment.bytes": strconvI(segBytes), "remote.storage.enable": strconvB(bits&8 != 0),
			"remote.log.copy.disable": strconvB(bits&16 != 0), "local.retention.ms": strconvI(int64(bits&32) * 1000)}
		in := Input{Topic: "orders", Partition: 2, Env: DefaultEnv(), SeedFrom: 1, SeedTo: 1, Workers: 1, StepBudget: 30_000}
		for tm, v := range offsetsOf(values) {
			of, err := ParseOffsets(tm.String()+".txt", tm, []byte(v))
			if err != nil {
				return
			}
			in.Offsets = append(in.Offsets, of)
		}
		cf, err := ParseConfigs("configs.txt", []byte(topicConfigsWith(overrides)))
		if err != nil {
			t.Fatal(err)
		}
		in.Configs = cf
		in.Env.ProduceBytesPerSec, in.Env.Given[FieldProduce] = produce, true
		if bits&64 != 0 {
			in.Env.RecordBytes, in.Env.Given[FieldRecordBytes] = recordBytes, true
		}
		_, _, _, err = Make(in)
		var te *ToolError
		var ie *InputError
		if err != nil && !errors.As(err, &te) && !errors.As(err, &ie) {
			t.Fatalf("%v: not a ToolError or InputError", err)
		}
	})
}

func strconvI(v int64) string { return fmt.Sprint(v) }
func strconvB(v bool) string  { return fmt.Sprint(v) }
