// Package compare runs both follower protocols on the same seeds and
// scenarios (a comparison): its jobs, their fold on package campaign's
// pool and its pair lines in campaign's shard files and merge; and it
// renders the comparison's report, runs.csv and charts into a directory.
//
// It must never parse a command line, print to a terminal or read the
// wall clock into a result: the pairs fold by job index, so the report is
// the same for any number of workers or shards.
package compare
