package model

// Goal is an interesting path a sweep must reach; the harness counts, from
// a run's events, how often it reached each.
type Goal uint8

// Coverage goals.
const (
	GoalFollowerOOR                 Goal = iota // a bootstrapping follower got OFFSET_OUT_OF_RANGE
	GoalFollowerOMTS                            // a bootstrapping follower got OFFSET_MOVED_TO_TIERED_STORAGE
	GoalAuxStateBuilt                           // a follower built auxiliary state from remote storage
	GoalEPUOUnknownRetry                        // a follower retried because EPUO was unknown
	GoalEPUOBelowLSOFallback                    // KIP-1023 found EPUO < LSO and fell back
	GoalLeaderChangedMidBootstrap               // the leader changed while a follower bootstrapped
	GoalAuxSegmentDeleted                       // the remote segment an aux build needed was deleted meanwhile
	GoalTieredFollowerBecameLeader              // a follower bootstrapped from EPUO became leader
	GoalUploadLagged                            // a -6 answer lagged committed, inactive segments not yet uploaded
	GoalIdleFullyTieredByRetention              // local retention left a leader fully tiered: LLSO = HRO+1 = LEO
	GoalUncleanElection                         // a replica outside the ISR was elected
	GoalRemoteRetention                         // the expiration task deleted a remote segment past retention.bytes or .ms
	GoalConsumeRemote                           // a consumer read records from remote storage
	GoalReplicaAddedMidRun                      // a replica was assigned after time 0 to a leader holding records
	GoalInitialEpochs                           // the initial log holds records of a leader epoch above 0
	GoalAuxEpochBeforeStart                     // an aux build found start-1 in an epoch before start's (OffsetsForLeaderEpoch)
	GoalUploadFailed                            // an upload failed (error or outage) and was retried
	GoalAuxReadFailed                           // an aux-state read failed (error or outage) and the follower backed off
	GoalEmptyFollowerAboveLeaderEnd             // a follower holding no records, its LEO above 0, truncated to the leader's lower LEO
	NumGoals
)

var goalNames = [...]string{"follower-oor", "follower-omts", "aux-state-built", "epuo-unknown-retry",
	"epuo-below-lso-fallback", "leader-changed-mid-bootstrap", "aux-segment-deleted",
	"tiered-follower-became-leader", "upload-lagged", "idle-fully-tiered-by-retention", "unclean-election", "remote-retention",
	"consume-remote", "replica-added-mid-run", "initial-epochs-above-0", "aux-epoch-before-start", "upload-failed", "aux-read-failed",
	"empty-follower-above-leader-end"}

func (g Goal) String() string { return goalNames[g] }

func (c *Cluster) reached(g Goal) { c.Coverage[g]++ }
