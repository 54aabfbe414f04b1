// Package compare runs both follower protocols on the same seeds and
// scenarios (a comparison), splits the pairs into shards and merges them,
// and renders the comparison's report, runs.csv and charts into a directory.
//
// It must never parse a command line, print to a terminal or read the
// wall clock into a result: the pairs fold by job index, so the report is
// the same for any number of workers or shards.
package compare
