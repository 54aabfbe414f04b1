package cliutil

import (
	"io/fs"
	"os"
	"runtime/debug"
	"testing"
)

// TestMemory: the least of the cgroup's limit and MemTotal; "max" and v1's
// no-limit value leave MemTotal; nothing readable gives 0.
func TestMemory(t *testing.T) {
	const meminfo = "MemFree:         1000 kB\nMemTotal:       24683664 kB\nSwapTotal: 0 kB\n"
	total := int64(24683664) << 10
	for _, c := range []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"no cgroup", map[string]string{"/proc/meminfo": meminfo}, total},
		{"v2 no limit", map[string]string{"/sys/fs/cgroup/memory.max": "max\n", "/proc/meminfo": meminfo}, total},
		{"v2 limit", map[string]string{"/sys/fs/cgroup/memory.max": "4294967296\n", "/proc/meminfo": meminfo}, 4 << 30},
		{"v1 no limit", map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n", "/proc/meminfo": meminfo}, total},
		{"v1 limit", map[string]string{"/sys/fs/cgroup/memory/memory.limit_in_bytes": "268435456\n", "/proc/meminfo": meminfo}, 256 << 20},
		{"cgroup only", map[string]string{"/sys/fs/cgroup/memory.max": "1073741824"}, 1 << 30},
		{"garbage", map[string]string{"/sys/fs/cgroup/memory.max": "lots", "/proc/meminfo": "MemTotal: 12 MB\nMemTotal: -5 kB\n"}, 0},
		{"nothing", nil, 0},
	} {
		read := func(path string) ([]byte, error) {
			if s, ok := c.files[path]; ok {
				return []byte(s), nil
			}
			return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
		}
		if got := Memory(read); got != c.want {
			t.Errorf("%s: Memory = %d, want %d", c.name, got, c.want)
		}
	}
	if _, err := os.ReadFile("/proc/meminfo"); err == nil && Memory(os.ReadFile) <= 0 {
		t.Errorf("this machine's memory is unknown, though /proc/meminfo reads")
	}
}

// TestRaiseMemoryLimit: the limit rises to what is asked, up to three
// quarters of the machine's memory, never falls, and an explicit
// GOMEMLIMIT keeps it.
func TestRaiseMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	env, had := os.LookupEnv("GOMEMLIMIT")
	os.Unsetenv("GOMEMLIMIT")
	defer func() {
		if had {
			os.Setenv("GOMEMLIMIT", env)
		}
	}()
	m := Memory(os.ReadFile)
	if m <= 0 {
		t.Skip("this machine's memory is unknown")
	}
	debug.SetMemoryLimit(256 << 20)
	RaiseMemoryLimit(512 << 20)
	if got := debug.SetMemoryLimit(-1); got != 512<<20 {
		t.Errorf("raised to 512 MiB: limit %d", got)
	}
	RaiseMemoryLimit(300 << 20)
	if got := debug.SetMemoryLimit(-1); got != 512<<20 {
		t.Errorf("asked for less: limit %d, want it kept at 512 MiB", got)
	}
	RaiseMemoryLimit(1 << 62)
	if got := debug.SetMemoryLimit(-1); got != m/4*3 {
		t.Errorf("asked for more than the machine: limit %d, want %d (3/4 of %d)", got, m/4*3, m)
	}
	debug.SetMemoryLimit(256 << 20)
	os.Setenv("GOMEMLIMIT", "256MiB")
	if !had {
		defer os.Unsetenv("GOMEMLIMIT")
	}
	RaiseMemoryLimit(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != 256<<20 {
		t.Errorf("GOMEMLIMIT given: limit %d, want it kept", got)
	}
}
