// Package plan answers an operator's question "should I turn on
// follower.fetch.last.tiered.offset.enable for this partition?" from the saved
// output of Kafka's own tools (kafka-get-offsets.sh, kafka-configs.sh,
// kafka-log-dirs.sh, kafka-topics.sh): it parses that output, builds a
// scenario of the partition as it is now with an empty replica added, runs it
// under both follower protocols, every behaviour profile and a range of
// seeds, and reports catch-up time, the bytes each copies, the price, the
// hazards that apply and a recommendation that names what it assumed.
//
// It reads only the bytes handed to it and writes only to the writers handed
// to it: it must never open files, read flags, the terminal or the wall
// clock, and its output must be the same bytes for the same input however
// many workers run the simulations.
package plan
