package model

import (
	"math"
	"unicode/utf16"
)

// JavaStringHash returns Java's String.hashCode of s: s[0]*31^(n-1) + ... +
// s[n-1] over the n UTF-16 code units of s, in 32-bit arithmetic that wraps.
// A character outside the Basic Multilingual Plane counts as its two
// surrogates, as in Java; an invalid UTF-8 byte counts as U+FFFD, what a Java
// decoder reads it as (Kafka's topic names are ASCII, so this never matters
// for one).
func JavaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			h = 31*h + hi
			h = 31*h + lo
			continue
		}
		h = 31*h + r
	}
	return h
}

// FetcherID returns the replica fetcher thread, 0..n-1, that fetches the
// partition topic-partition when a broker runs n (num.replica.fetchers)
// threads per source broker: Kafka's
// Utils.abs(31 * topic.hashCode() + partition) % numFetchersPerBroker
// (AbstractFetcherManager.getFetcherId, AbstractFetcherManager.scala:107-111
// @1eb7644349cb), in wrapping int arithmetic. It panics if n < 1 (scenario validation keeps num_replica_fetchers >= 1).
func FetcherID(topic string, partition int32, n int) int {
	if n < 1 {
		panic("model: FetcherID with fewer than one fetcher")
	}
	return int(kafkaAbs(31*JavaStringHash(topic)+partition)) % n
}

// kafkaAbs is Kafka's Utils.abs (Utils.java:184-190 @1eb7644349cb): the
// absolute value, except 0 for the minimum int, whose absolute value an int
// cannot hold (Math.abs returns it unchanged, negative).
func kafkaAbs(n int32) int32 {
	switch {
	case n == math.MinInt32:
		return 0
	case n < 0:
		return -n
	}
	return n
}
