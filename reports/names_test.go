package reports

// flagNames spells a field as cmd/simrun's flag for it (its fieldFlag), so
// that these tests read the texts a user reads.
func flagNames(field string) string {
	flag, ok := map[string]string{"All": "all", "Fix": "fix", "MaxSaved": "max-saved", "MaxShrunk": "max-shrunk", "MaxSteps": "max-steps",
		"Mutant": "mutant", "Out": "out", "Profile": "profile", "Profiles": "profiles", "Scenario": "scenario", "Seed": "seed",
		"Seeds": "seeds", "Shard": "shard", "Shrink": "shrink", "Strategy": "strategy", "Trace": "trace", "Vary": "vary",
		"Verbose": "verbose", "Workers": "workers", "ChromeTrace": "chrome-trace"}[field]
	if !ok {
		return ""
	}
	return "--" + flag
}
