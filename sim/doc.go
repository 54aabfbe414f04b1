// Package sim is the deterministic core every tierfetch run stands on: a
// single-threaded event scheduler over virtual time, seeded random streams
// (one per purpose), and a bounded ring for the last events of a run.
//
// sim knows nothing of Kafka. It must never read the wall clock, use the
// global math/rand source, start goroutines or take locks: the same seed and
// binary give the same run, byte for byte, on any machine and GOMAXPROCS.
package sim
