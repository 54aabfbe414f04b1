package scenarios

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// Schedule is the "explore" member of a scenario file: the choices of one path
// simrun explore found, so that simrun run takes exactly that path instead of
// drawing its choices from the seed.
//
// A run meets a choice point wherever it would otherwise draw or pick: before each
// step (inject one of Faults, or not), the order of events due at the same instant,
// a message's network latency class, a remote operation's latency class and failure,
// which producer writes. Choices holds one pick per point that has two or more
// alternatives, in the order the run meets them; past its end every pick is 0 (no
// fault, the first event due, the fast latency, no failure, the first producer).
type Schedule struct {
	// Faults are the faults the schedule may inject, as scenario events; AtMs is
	// when the path first injected it (for the reader: the pick says when).
	Faults []Event `json:"faults"`
	// Lost: a message may be lost (the third network latency class).
	Lost bool `json:"lost,omitempty"`
	// Choices: one pick per choice point, in order.
	Choices []int `json:"choices"`
}

// scheduleChoicesMax bounds a schedule's length like the other limits on a file.
const scheduleChoicesMax = 1_000_000

type rawSchedule struct {
	Faults  json.RawMessage `json:"faults"`
	Lost    bool            `json:"lost"`
	Choices json.RawMessage `json:"choices"`
}

func decodeSchedule(data json.RawMessage) (*Schedule, error) {
	if isAbsent(data) {
		return nil, nil
	}
	var raw rawSchedule
	if _, err := decodeObject("explore", data, &raw); err != nil {
		return nil, err
	}
	faults, err := arrayElements("explore.faults", raw.Faults)
	if err != nil {
		return nil, err
	}
	s := &Schedule{Lost: raw.Lost, Faults: make([]Event, len(faults))}
	if !isAbsent(raw.Choices) {
		// Counted before decoding: a file of millions of choices took
		// gigabytes to decode only to be refused.
		if raw.Choices[0] == '[' {
			if n := arrayLen(raw.Choices); n > scheduleChoicesMax {
				return nil, fieldErr("explore.choices", "at most %d choices, got %d", scheduleChoicesMax, n)
			}
		}
		if err := decodeField("explore.choices", raw.Choices, reflect.ValueOf(&s.Choices).Elem()); err != nil {
			return nil, err
		}
	}
	for i, d := range faults {
		if s.Faults[i], err = decodeEvent(fmt.Sprintf("explore.faults[%d]", i), d); err != nil {
			return nil, err
		}
	}
	if s.Choices == nil {
		s.Choices = []int{}
	}
	return s, nil
}

func (s *Scenario) validateSchedule(ix *partitionIndex) error {
	x := s.Explore
	if x == nil {
		return nil
	}
	for i, e := range x.Faults {
		path := fmt.Sprintf("explore.faults[%d]", i)
		if err := s.validateEvent(path, e); err != nil {
			return err
		}
		if err := s.checkTarget(ix, path, e); err != nil {
			return err
		}
		ok := false
		for _, t := range FaultTypes {
			ok = ok || e.Type == t
		}
		if !ok {
			return fieldErr(path+".type", "%s cannot be injected (one of %v)", e.Type, FaultTypes)
		}
	}
	if len(x.Choices) > scheduleChoicesMax {
		return fieldErr("explore.choices", "at most %d choices, got %d", scheduleChoicesMax, len(x.Choices))
	}
	for i, c := range x.Choices {
		if c < 0 || c > 1<<20 {
			return fieldErr(fmt.Sprintf("explore.choices[%d]", i), "must be in 0..%d, got %d", 1<<20, c)
		}
	}
	return nil
}
