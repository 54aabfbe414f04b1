package fuzz

import (
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestUncleanSeed6050IsClean: seed 6050 with unclean elections on elects the
// empty replica it adds; the new lineage restarts at offset 0 and uploads
// [0..1593] over the initial segment [0..1593] of the ended lineage. That
// segment is the old lineage's: its epoch 0 is not in the new leader's
// epoch cache, through which Kafka finds a remote segment to read
// (RemoteLogManager.read), and as every epoch it holds precedes the new
// leader's earliest, the expiration task deletes it as unreferenced. So
// the run is clean: it was reported as an
// unknown remote-agreement failure at 67.2 s before the checker stopped
// comparing it with the new lineage.
func TestUncleanSeed6050IsClean(t *testing.T) {
	sc := gen.Generate(6050)
	sc.Config.UncleanLeaderElectionEnable = true
	for _, p := range []model.Profile{model.KIP, model.Kafka43, model.KafkaTrunk} {
		for _, st := range []harness.Strategy{harness.LocalLogStart, harness.LastTiered} {
			if r := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: st, Profile: p}); r.Outcome != harness.OutcomeOK {
				t.Errorf("%s, %s: %s %+v", p.Name(), st, r.Outcome, r.Violation)
			}
		}
	}
}
