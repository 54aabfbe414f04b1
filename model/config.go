package model

import (
	"fmt"

	"tierfetch/sim"
)

// ConfigKind says whether a dynamic config key takes a boolean or an integer.
type ConfigKind uint8

// Config value kinds.
const (
	ConfigBool ConfigKind = iota
	ConfigInt
)

// DynamicConfigs lists the keys SetConfig accepts and their kinds.
var DynamicConfigs = map[string]ConfigKind{
	"remote_storage_enable":                    ConfigBool,
	"remote_log_copy_disable":                  ConfigBool,
	"remote_log_delete_on_disable":             ConfigBool,
	"follower_fetch_last_tiered_offset_enable": ConfigBool,
	"local_retention_bytes":                    ConfigInt,
	"local_retention_ms":                       ConfigInt,
	"retention_bytes":                          ConfigInt,
	"retention_ms":                             ConfigInt,
	"remote_log_manager_task_interval_ms":      ConfigInt,
}

// SetConfig changes a dynamic config. Broker configs apply to broker (every
// broker when broker < 0); topic configs apply to the partition. It returns
// why a change was refused, as Kafka refuses it.
func (c *Cluster) SetConfig(key string, boolVal bool, intVal int64, broker int) error {
	switch key {
	case "follower_fetch_last_tiered_offset_enable":
		for _, b := range c.Brokers {
			if broker < 0 || b.ID == broker {
				b.LastTieredEnable = boolVal
			}
		}
	case "remote_storage_enable":
		return c.setRemoteStorageEnable(boolVal)
	case "remote_log_copy_disable":
		c.Cfg.RemoteLogCopyDisable = boolVal
	case "remote_log_delete_on_disable":
		c.Cfg.RemoteLogDeleteOnDisable = boolVal
	case "local_retention_bytes":
		c.Cfg.LocalRetentionBytes = intVal
	case "local_retention_ms":
		c.Cfg.LocalRetentionMs = intVal
	case "retention_bytes":
		c.Cfg.RetentionBytes = intVal
	case "retention_ms":
		c.Cfg.RetentionMs = intVal
	case "remote_log_manager_task_interval_ms":
		c.Cfg.RLMTaskInterval = sim.Ms(intVal)
	default:
		return fmt.Errorf("unknown config %q", key)
	}
	return nil
}

// setRemoteStorageEnable turns tiering on (the RLM tasks start; the first copy
// starts at the log start offset) or off (only with
// remote.log.delete.on.disable: remote data is deleted and the log start
// offset jumps to the local log start offset).
func (c *Cluster) setRemoteStorageEnable(on bool) error {
	if on == c.Cfg.RemoteStorageEnable {
		return nil
	}
	if !on && !c.Cfg.RemoteLogDeleteOnDisable {
		return fmt.Errorf("remote_storage_enable=false needs remote_log_delete_on_disable=true")
	}
	c.Cfg.RemoteStorageEnable = on
	for _, b := range c.Brokers {
		if !b.Up {
			continue
		}
		switch {
		case on && b.Role == RoleLeader:
			c.startTieringTasks(b)
		case on && b.Role == RoleFollower:
			c.setTimer(b, TimerRLMFollower, 0, 0)
		case b.Role == RoleLeader:
			c.cancelTimer(b, TimerRLMCopy, 0)
			c.cancelTimer(b, TimerRLMExpire, 0)
			b.lead.uploading = 0
		case b.Role == RoleFollower:
			c.cancelTimer(b, TimerRLMFollower, 0)
		}
	}
	if on {
		return nil
	}
	// The leader deletes the remote data (Kafka's stopPartitions with
	// deleteRemoteLog) and moves its log start offset to its local log
	// start. With no leader nobody deletes it: the data stays, orphaned.
	l := c.Leader()
	if l == nil {
		c.emit(ev(EvTieringDisabled))
		return nil
	}
	c.Remote.Segments = nil
	c.Remote.Version++
	l.Log.IncrementLogStart(l.Log.LocalLogStart)
	e := brokerEv(EvTieringDisabled, l.ID)
	e.Offset = l.Log.LogStart
	c.emit(e)
	return nil
}
