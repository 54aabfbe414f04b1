package invariants

import "tierfetch/model"

// The checker's tests change a cluster through its one input method, as a
// run does: each helper acknowledges what was ready, steps the cluster
// once at its current time, acknowledges what the step did and returns why
// the model refused the input (nil: it happened).

func step(c *model.Cluster, in model.Input) error {
	c.Advance()
	c.Step(c.Now, &in)
	defer c.Advance()
	for _, e := range c.Ready().Events {
		if e.Kind == model.EvSkipped {
			return refusal(e.Text)
		}
	}
	return nil
}

type refusal string

func (r refusal) Error() string { return string(r) }

func electLeader(c *model.Cluster, id int) error {
	return step(c, model.Input{Kind: model.EvElectLeader, Broker: id})
}

func crash(c *model.Cluster, id int) error {
	return step(c, model.Input{Kind: model.EvCrash, Broker: id})
}

func restart(c *model.Cluster, id int) error {
	return step(c, model.Input{Kind: model.EvRestart, Broker: id})
}

func addReplica(c *model.Cluster, id int) error {
	return step(c, model.Input{Kind: model.EvAddReplica, Broker: id})
}

func deleteRecords(c *model.Cluster, before int64) error {
	return step(c, model.Input{Kind: model.EvDeleteRecords, Offset: before})
}

// setBool sets a boolean config key on broker (-1: all).
func setBool(c *model.Cluster, key string, on bool, broker int) error {
	return step(c, model.Input{Kind: model.EvSetConfig, Key: key, Bool: true, On: on, Broker: broker})
}
