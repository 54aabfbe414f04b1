package cliutil

import "runtime/debug"

// Version is the module version and the VCS revision the binary was built
// from (with "+dirty" when the tree had changes), from the build info.
// go run and go test builds without VCS stamping say "(devel)".
func Version() string {
	v, rev, dirty := buildVersion()
	s := v
	if rev != "" {
		s += " " + rev
		if dirty {
			s += "+dirty"
		}
	}
	return s
}

// buildVersion reads the main module's version and VCS stamp.
func buildVersion() (version, revision string, dirty bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)", "", false
	}
	version = info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	return version, revision, dirty
}
