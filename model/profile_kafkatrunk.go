package model

// KafkaTrunkCommit is the Apache Kafka trunk commit the kafka-trunk profile
// models: the version of
// storage/src/main/java/org/apache/kafka/server/log/remote/storage/RemoteLogManager.java
// that was read, which carries KAFKA-20732. The other files read for this
// profile, each at the version read, are named in docs/upstream/README.md.
const KafkaTrunkCommit = "025293cb08b2997a40bc1c369c78e194c00dd9af"

// KafkaTrunk is the profile that follows Apache Kafka's trunk at
// KafkaTrunkCommit. It is Kafka 4.3.0's behaviour plus KAFKA-20732: the RLM
// expiration task seeds an unknown highest uploaded offset from the remote
// metadata on a leader (RemoteLogManager.maybeSeedHighestOffsetInRemoteStorage,
// called by cleanupExpiredRemoteLogSegments once a segment is listed), so a
// restarted leader with remote.log.copy.disable=true learns it although it
// has no copy task. The leader's -6 answer, the follower's decision and the
// auxiliary-state build are unchanged from 4.3.0.
var KafkaTrunk Profile = kafkaTrunkProfile{}

type kafkaTrunkProfile struct{ kafka43Profile }

func (kafkaTrunkProfile) Name() string { return "kafka-trunk" }

// ExpirationSeedsHighestRemote: KAFKA-20732.
func (kafkaTrunkProfile) ExpirationSeedsHighestRemote() bool { return true }

// CopyLag: KIP-1241 (apache/kafka#20913), whose remote.copy.lag.ms and
// remote.copy.lag.bytes hold segments back from upload, so HRO, and with it
// EPUO, lags further behind the log end.
func (kafkaTrunkProfile) CopyLag() bool { return true }
