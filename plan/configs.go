package plan

import (
	"strconv"
	"strings"
)

// ConfigEntry is one config as kafka-configs.sh --describe prints it.
type ConfigEntry struct {
	Line      int
	Name      string
	Value     string // "null" when Kafka has none (or hides a sensitive one)
	Sensitive bool
	// Source is where the value comes from: the first synonym's source
	// (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG, ...), ""
	// when the tool printed no synonyms.
	Source string
}

// ConfigBlock is one entity's configs: the lines under one banner.
type ConfigBlock struct {
	Line       int    // of the banner
	EntityType string // "topic", "broker", ...
	Entity     string // the topic name or broker id; "" for the cluster defaults
	All        bool   // --all: every config, not only the dynamic ones
	Entries    map[string]ConfigEntry
}

// ConfigsFile is one saved output of kafka-configs.sh --describe; it may
// hold several entities (a topic's and a broker's, concatenated).
type ConfigsFile struct {
	Name   string
	Blocks []*ConfigBlock
}

// The forms kafka-configs.sh --describe prints, read from Kafka's source,
// tools/src/main/java/org/apache/kafka/tools/ConfigCommand.java (trunk,
// commit 1208b168bc7ef4caa5b73fb50d6b3e3bb7a58641, describeResourceConfig;
// the Scala kafka.admin.ConfigCommand printed the same): a banner "All
// configs for topic T are:" (with --all; "Dynamic configs for ..." without,
// "Default configs for brokers in the cluster are:" for --entity-default),
// then one line a config sorted by name, "  NAME=VALUE sensitive=BOOL
// synonyms={SOURCE:NAME=VALUE, ...}". The ZooKeeper-era tool printed one
// line, "Configs for topic 'T' are K=V,K=V", which is read too.
const (
	sensitiveSep = " sensitive="
	synonymsSep  = " synonyms="
	legacyPrefix = "Configs for "
)

// ParseConfigs reads the saved output of kafka-configs.sh --describe [--all].
func ParseConfigs(name string, data []byte) (*ConfigsFile, error) {
	f := &ConfigsFile{Name: name}
	var cur *ConfigBlock
	for _, l := range splitLines(data) {
		if isNoise(l.text) {
			continue
		}
		if b, ok := parseBanner(l); ok {
			cur = b
			f.Blocks = append(f.Blocks, b)
			continue
		}
		if b, ok, err := parseLegacyConfigs(name, l); ok || err != nil {
			if err != nil {
				return nil, err
			}
			cur = nil
			f.Blocks = append(f.Blocks, b)
			continue
		}
		if cur == nil {
			return nil, toolErr(name, l.n, "expected a banner like \"All configs for topic T are:\" (kafka-configs.sh --describe --all output), got %s", quote(l.text))
		}
		e, err := parseConfigEntry(name, l)
		if err != nil {
			return nil, err
		}
		if prev, dup := cur.Entries[e.Name]; dup {
			return nil, toolErr(name, l.n, "config %s again (first on line %d)", e.Name, prev.Line)
		}
		cur.Entries[e.Name] = e
	}
	if len(f.Blocks) == 0 {
		return nil, toolErr(name, 0, "no \"All configs for topic T are:\" banner: is this kafka-configs.sh --describe --all output?")
	}
	return f, nil
}

// parseBanner reads "All configs for topic T are:", "Dynamic configs for
// broker 1 are:" or "Default configs for brokers in the cluster are:".
func parseBanner(l line) (*ConfigBlock, bool) {
	s := strings.TrimSpace(l.text)
	b := &ConfigBlock{Line: l.n, Entries: map[string]ConfigEntry{}}
	if rest, ok := strings.CutPrefix(s, "Default configs for "); ok && strings.HasSuffix(rest, " in the cluster are:") {
		b.EntityType = strings.TrimSuffix(strings.TrimSuffix(rest, " in the cluster are:"), "s")
		b.All = true
		return b, true
	}
	var rest string
	switch {
	case strings.HasPrefix(s, "All configs for "):
		rest, b.All = strings.TrimPrefix(s, "All configs for "), true
	case strings.HasPrefix(s, "Dynamic configs for "):
		rest = strings.TrimPrefix(s, "Dynamic configs for ")
	default:
		return nil, false
	}
	rest, ok := strings.CutSuffix(rest, " are:")
	if !ok {
		return nil, false
	}
	b.EntityType, b.Entity, ok = strings.Cut(rest, " ")
	return b, ok && b.Entity != ""
}

// parseLegacyConfigs reads "Configs for topic 'T' are K=V,K=V".
func parseLegacyConfigs(name string, l line) (*ConfigBlock, bool, error) {
	s := strings.TrimSpace(l.text)
	rest, ok := strings.CutPrefix(s, legacyPrefix)
	if !ok {
		return nil, false, nil
	}
	head, list, ok := strings.Cut(rest, " are")
	typ, entity, ok2 := strings.Cut(head, " ")
	if !ok || !ok2 {
		return nil, false, toolErr(name, l.n, "expected \"Configs for topic 'T' are K=V,...\", got %s", quote(s))
	}
	b := &ConfigBlock{Line: l.n, EntityType: typ, Entity: strings.Trim(entity, "'"), Entries: map[string]ConfigEntry{}}
	for _, kv := range strings.Split(strings.TrimSpace(list), ",") {
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, false, toolErr(name, l.n, "expected NAME=VALUE in the config list, got %s", quote(kv))
		}
		b.Entries[k] = ConfigEntry{Line: l.n, Name: k, Value: v, Source: "DYNAMIC_TOPIC_CONFIG"}
	}
	return b, true, nil
}

// parseConfigEntry reads "  NAME=VALUE sensitive=BOOL synonyms={...}".
func parseConfigEntry(name string, l line) (ConfigEntry, error) {
	s := strings.TrimSpace(l.text)
	bad := func() (ConfigEntry, error) {
		return ConfigEntry{}, toolErr(name, l.n, "expected \"  NAME=VALUE sensitive=BOOL synonyms={...}\", got %s", quote(s))
	}
	i := strings.LastIndex(s, sensitiveSep)
	if i < 0 {
		return bad()
	}
	k, v, ok := strings.Cut(s[:i], "=")
	sens, syn, ok2 := strings.Cut(s[i+len(sensitiveSep):], synonymsSep)
	if !ok || !ok2 || k == "" || strings.ContainsAny(k, " \t") {
		return bad()
	}
	sensitive, err := strconv.ParseBool(sens)
	if err != nil || !strings.HasPrefix(syn, "{") || !strings.HasSuffix(syn, "}") {
		return bad()
	}
	e := ConfigEntry{Line: l.n, Name: k, Value: v, Sensitive: sensitive}
	if first, _, _ := strings.Cut(strings.Trim(syn, "{}"), ", "); first != "" {
		e.Source, _, _ = strings.Cut(first, ":")
	}
	return e, nil
}

// Block returns the block of entityType entity ("topic", "T"), nil if the
// file holds none.
func (f *ConfigsFile) Block(entityType, entity string) *ConfigBlock {
	for _, b := range f.Blocks {
		if b.EntityType == entityType && b.Entity == entity {
			return b
		}
	}
	return nil
}

// entities lists the file's "TYPE NAME" entities, for error messages.
func (f *ConfigsFile) entities() string {
	var names []string
	for _, b := range f.Blocks {
		names = append(names, strings.TrimSpace(b.EntityType+" "+b.Entity))
	}
	return strings.Join(names, ", ")
}
