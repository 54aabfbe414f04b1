package invariants

import (
	"testing"

	"tierfetch/model"
)

// TestSameLineageMatchesKey: the in-place comparison says the same as
// comparing the whole key, for a change of each field it covers.
func TestSameLineageMatchesKey(t *testing.T) {
	mk := func() (*model.Broker, *model.Broker) {
		f := &model.Broker{ID: 1}
		l := &model.Broker{ID: 0}
		f.Log.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 10}}
		l.Log.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 10}, {Epoch: 3, StartOffset: 20}}
		f.Log.HighWatermark, l.Log.HighWatermark = 15, 25
		f.Log.Gen, l.Log.Gen = 4, 7
		return f, l
	}
	changes := map[string]func(f, l *model.Broker){
		"none": func(f, l *model.Broker) {},
		"fHW":  func(f, l *model.Broker) { f.Log.HighWatermark++ },
		"lHW":  func(f, l *model.Broker) { l.Log.HighWatermark++ },
		"fGen": func(f, l *model.Broker) { f.Log.Gen++ },
		"lGen": func(f, l *model.Broker) { l.Log.Gen++ },
		"fLen": func(f, l *model.Broker) { f.Log.Epochs = f.Log.Epochs[:1] },
		"lLen": func(f, l *model.Broker) {
			l.Log.Epochs = append(l.Log.Epochs, model.EpochEntry{Epoch: 4, StartOffset: 30})
		},
		"fLastEpoch":  func(f, l *model.Broker) { f.Log.Epochs[1].Epoch = 3 },
		"fLastStart":  func(f, l *model.Broker) { f.Log.Epochs[1].StartOffset = 11 },
		"lLastStart":  func(f, l *model.Broker) { l.Log.Epochs[2].StartOffset = 21 },
		"fFirstStart": func(f, l *model.Broker) { f.Log.Epochs[0].StartOffset = 1 },
		"lFirstEpoch": func(f, l *model.Broker) { l.Log.Epochs[0].Epoch = 1 },
	}
	for name, change := range changes {
		f, l := mk()
		hot, ends := lineageKeyOf(f, l)
		change(f, l)
		hot2, ends2 := lineageKeyOf(f, l)
		want := hot2 == hot && ends2 == ends
		if got := sameLineage(&hot, &ends, f, l); got != want {
			t.Errorf("%s: sameLineage %v, key comparison %v", name, got, want)
		}
		if name != "none" && want {
			t.Errorf("%s: the change did not change the key", name)
		}
	}
}
