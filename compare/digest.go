package compare

import (
	"fmt"

	"github.com/cespare/xxhash/v2"

	"tierfetch/campaign"
	"tierfetch/gen"
)

// digestSeeds is how many seeds' generated scenarios a --generated
// comparison's content digest covers: the generator is the binary's code,
// and a changed one changes the first scenarios as surely as the last.
const digestSeeds = 64

// ContentDigest is a compare shard header's content_digest: XXH64 (16 hex
// digits) of what fixes the comparison's results: its flags (normalized, as
// the header lists them), then the canonical text (Scenario.Marshal) of
// every scenario it runs, or with --generated of the first digestSeeds
// seeds' scenarios, and the default sweep's the same way. Merge refuses
// shards whose digests differ from each other or from its own: a scenario
// file edited between the shards, or after them.
func (s *Setup) ContentDigest() string {
	d := xxhash.New()
	s.digestInto(d)
	return fmt.Sprintf("%016x", d.Sum64())
}

func (s *Setup) digestInto(d *xxhash.Digest) {
	for _, a := range s.args {
		fmt.Fprintf(d, "arg %q\n", a)
	}
	write := func(what string, data []byte, err error) {
		if err != nil {
			data = []byte(err.Error())
		}
		fmt.Fprintf(d, "%s %d\n", what, len(data))
		d.Write(data)
	}
	if s.scenarios == nil {
		n := 0
		for seed := range campaign.SeedRange(s.from, s.to) {
			if n++; n > digestSeeds {
				break
			}
			data, err := gen.Generate(seed).Marshal()
			write(fmt.Sprintf("generated %d", seed), data, err)
		}
	}
	for _, sc := range s.scenarios {
		data, err := sc.Marshal()
		write("scenario", data, err)
	}
	if s.sweep != nil {
		fmt.Fprintf(d, "default sweep\n")
		s.sweep.digestInto(d)
	}
}
