package compare

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"tierfetch/config"
	"tierfetch/outfile"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

// ReportFiles are the files a report may write into the output directory.
var ReportFiles = []string{"report.md", "runs.csv", reports.ChartCopy, reports.ChartCDF, reports.ChartPaired,
	reports.ChartTimeline, reports.ChartSweep}

// CheckOutputs checks, before any pair runs, where the comparison writes:
// with --jsonl, the file is claimed (outfile.Claim: new or empty, and locked
// until the pairs are written, so a second comparison on it is refused);
// otherwise the output directory is made and every report file in it can be
// written. No output may be an input: the scenario file, or the extra
// inputs (merge's shard files). Errors name the fields (config.Error).
func (s *Setup) CheckOutputs(extra ...outfile.Named) error {
	inputs := append([]outfile.Named{s.scenarioInput()}, extra...)
	if s.f.jsonl != "" {
		if err := outfile.CheckDistinct([]outfile.Named{{Flag: "{JSONL}", Path: s.f.jsonl}}, inputs); err != nil {
			return err
		}
		f, err := outfile.Claim(s.f.jsonl)
		if errors.Is(err, outfile.ErrNotEmpty) {
			return config.Errorf("JSONL", "{JSONL}: %v; it may hold an earlier comparison's pairs: name a new file or delete this one (an interrupted comparison's 'resume with:' command writes the rest to a new file, and 'simrun merge' folds both)", err)
		}
		if err != nil {
			return config.Errorf("JSONL", "{JSONL}: %v", err)
		}
		s.claim = f
		return nil
	}
	if err := outfile.EnsureDir(s.f.out); err != nil {
		return config.Errorf("Out", "{Out}: %v", err)
	}
	var outs []outfile.Named
	for _, name := range ReportFiles {
		outs = append(outs, outfile.Named{Flag: "{Out}", Path: filepath.Join(s.f.out, name)})
	}
	if err := outfile.CheckDistinct(outs, inputs); err != nil {
		return err
	}
	for _, out := range outs {
		if _, err := os.Lstat(out.Path); err != nil {
			continue // a new file: the directory was checked
		}
		if err := outfile.CheckFile(out.Path); err != nil {
			return config.Errorf("Out", "{Out}: %v", err)
		}
	}
	return nil
}

// ScenarioArg is --scenario as given ("" for none).
func (s *Setup) ScenarioArg() string { return s.f.scenario }

// scenarioInput is the scenario file the comparison reads, if any.
func (s *Setup) scenarioInput() outfile.Named {
	if s.f.scenario == "" {
		return outfile.Named{}
	}
	if scenarios.IsNamed(s.f.scenario) {
		return outfile.Named{}
	}
	return outfile.Named{Flag: "{Scenario}", Path: s.f.scenario}
}

// partFile is where an interrupted comparison without --jsonl saves its
// pairs: pairs.jsonl in the output directory, or when that holds an
// earlier comparison's, the first pairs-N.jsonl free.
func (s *Setup) partFile() string {
	for n := 1; n < 1000; n++ {
		name := "pairs.jsonl"
		if n > 1 {
			name = fmt.Sprintf("pairs-%d.jsonl", n)
		}
		path := filepath.Join(s.f.out, name)
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			return path
		}
	}
	return filepath.Join(s.f.out, "pairs-last.jsonl")
}
