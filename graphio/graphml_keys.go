package graphio

import (
	"encoding/xml"
	"fmt"
	"strings"
)

// gmlKey is a declared <key>.
type gmlKey struct {
	id, domain, name string // id, for (default "all"), attr.name
	def              string // its <default>
	hasDef           bool
	line             int
}

func (k *gmlKey) String() string { return fmt.Sprintf("%s (for %s) %q", k.id, k.domain, k.name) }

func (gr *graphmlReader) openKey(t xml.StartElement, parent string) error {
	if parent != "graphml" {
		return gr.elemErr("key", "", "", "a <key> must be a child of <graphml>")
	}
	k := &gmlKey{line: gr.line(), domain: "all"}
	k.id, _ = attr(t, "id")
	k.name, _ = attr(t, "attr.name")
	if f, ok := attr(t, "for"); ok {
		k.domain = f
	}
	if k.id == "" {
		return gr.elemErr("key", "id", "", "missing key id")
	}
	for _, o := range gr.keys {
		if o.id == k.id {
			return gr.elemErr("key", "id", k.id, "key declared twice (first on line %d)", o.line)
		}
	}
	gr.keys = append(gr.keys, k)
	gr.key = k
	return nil
}

// resolveKeys finds the weight and label keys when the graph starts (keys
// precede the graph in GraphML).
func (gr *graphmlReader) resolveKeys() error {
	var err error
	if gr.weightKey, err = gr.findKey("edge", gr.opts.Weight); err != nil {
		return err
	}
	if gr.opts.Label == "" {
		return nil
	}
	if gr.labelKey, err = gr.findKey("node", gr.opts.Label); err != nil {
		return err
	}
	if gr.labelKey == nil {
		return gr.noKey("node", "Options.Label", gr.opts.Label)
	}
	gr.labelOf = map[string]*gmlElem{}
	return nil
}

// findKey returns the key for domain (or all) with attr.name name, nil if
// none; two such keys are an error.
func (gr *graphmlReader) findKey(domain, name string) (*gmlKey, error) {
	var found *gmlKey
	for _, k := range gr.keys {
		if k.name != name || (k.domain != domain && k.domain != "all") {
			continue
		}
		if found != nil {
			return nil, &ParseError{Line: k.line, Elem: "key", Field: "attr.name", Value: name,
				Msg: fmt.Sprintf("keys %s and %s both name the %s attribute", found.id, k.id, domain), Err: errInvalid}
		}
		found = k
	}
	return found, nil
}

// noKey is the error of an attribute named by an option that no key of
// the file declares; it lists the keys the file declares.
func (gr *graphmlReader) noKey(domain, option, name string) error {
	declared := make([]string, len(gr.keys))
	for i, k := range gr.keys {
		declared[i] = k.String()
	}
	list := "none"
	if len(declared) > 0 {
		list = strings.Join(declared, ", ")
	}
	hint := fmt.Sprintf("set %s to one of them", option)
	if domain == "edge" {
		hint += ", or Options.DefaultWeight to weigh the edges"
	}
	return &ParseError{Line: gr.line(), Elem: "key", Field: "attr.name", Value: name,
		Msg: fmt.Sprintf("no %s key has this attr.name (the file declares: %s); %s", domain, list, hint), Err: errInvalid}
}

func (gr *graphmlReader) openNode(t xml.StartElement, parent string) error {
	id, _ := attr(t, "id")
	e := &gmlElem{node: true, id: id, line: gr.line()}
	if parent != "graph" || !gr.inGraph {
		return gr.elemErr(e.name(), "", "", "a <node> must be a child of <graph>")
	}
	if id == "" {
		return gr.elemErr("node", "id", id, "missing node id")
	}
	if _, dup := gr.c.lookup(id); dup {
		return gr.elemErr(e.name(), "id", id, "node declared twice")
	}
	if _, err := gr.c.node(e.line, id); err != nil {
		return err
	}
	gr.elem = e
	return nil
}

func (gr *graphmlReader) openEdge(t xml.StartElement, parent string) error {
	e := &gmlElem{line: gr.line(), directed: gr.directed}
	e.id, _ = attr(t, "id")
	s, ok1 := attr(t, "source")
	d, ok2 := attr(t, "target")
	e.ends = [2]string{s, d}
	if parent != "graph" || !gr.inGraph {
		return gr.elemErr(e.name(), "", "", "an <edge> must be a child of <graph>")
	}
	if !ok1 || !ok2 {
		return gr.elemErr(e.name(), "source/target", s+" "+d, "missing endpoint")
	}
	if dir, ok := attr(t, "directed"); ok {
		switch dir {
		case "true":
			e.directed = true
		case "false":
			e.directed = false
		default:
			return gr.elemErr(e.name(), "directed", dir, "want true or false")
		}
	}
	if gr.weightKey == nil && gr.opts.DefaultWeight == 0 {
		return gr.noKey("edge", "Options.Weight", gr.opts.Weight)
	}
	gr.elem = e
	return nil
}

// openData starts capturing the text of a <data> for the weight key in
// an edge or the label key in a node.
func (gr *graphmlReader) openData(t xml.StartElement, parent string) error {
	key, _ := attr(t, "key")
	var what string
	switch {
	case parent == "edge" && gr.weightKey != nil && key == gr.weightKey.id:
		what = "weight"
	case parent == "node" && gr.labelKey != nil && key == gr.labelKey.id:
		what = "label"
	default:
		return nil
	}
	if gr.elem.has {
		return gr.elemErr("data", "key", key, "a second value for %q in <%s>", gr.elemKeyName(what), gr.elem.name())
	}
	gr.capture = what
	gr.text.Reset()
	return nil
}

func (gr *graphmlReader) closeNode() error {
	e := gr.elem
	gr.elem = nil
	if gr.labelKey == nil {
		return nil
	}
	if !e.has && gr.labelKey.hasDef {
		e.value = gr.labelKey.def
	} else if !e.has {
		return &ParseError{Line: e.line, Elem: e.name(), Field: gr.opts.Label, Value: "",
			Msg: fmt.Sprintf("no <data key=%q> for the label (Options.Label)", gr.labelKey.id), Err: errInvalid}
	}
	if o, dup := gr.labelOf[e.value]; dup {
		return &ParseError{Line: e.line, Elem: e.name(), Field: gr.opts.Label, Value: e.value,
			Msg: fmt.Sprintf("label also of <%s> on line %d", o.name(), o.line), Err: errInvalid}
	}
	gr.labelOf[e.value] = e
	gr.labels = push(gr.labels, e.value)
	return nil
}

func (gr *graphmlReader) closeEdge() error {
	e := gr.elem
	gr.elem = nil
	for _, id := range e.ends {
		if _, ok := gr.c.lookup(id); !ok {
			return &ParseError{Line: e.line, Elem: e.name(), Field: "source/target", Value: id, Msg: "no <node> with this id declared before the edge", Err: errInvalid}
		}
	}
	w, err := gr.edgeWeight(e)
	if err != nil {
		return err
	}
	if err := gr.c.add(e.line, e.ends[0], e.ends[1], w, e.directed); err != nil {
		err.(*ParseError).Elem = e.name()
		return err
	}
	return nil
}

// edgeWeight returns the weight of an edge: its <data>, else the key's
// <default>, else Options.DefaultWeight.
func (gr *graphmlReader) edgeWeight(e *gmlElem) (float64, error) {
	text, line, field := e.value, e.line, gr.opts.Weight
	switch {
	case e.has:
	case gr.weightKey != nil && gr.weightKey.hasDef:
		text, line, field = gr.weightKey.def, gr.weightKey.line, "<default> of key "+gr.weightKey.id
	case gr.opts.DefaultWeight > 0:
		gr.c.data.Defaulted++
		return gr.opts.DefaultWeight, nil
	default:
		return 0, &ParseError{Line: e.line, Elem: e.name(), Field: gr.opts.Weight, Value: "",
			Msg: fmt.Sprintf("no <data key=%q> for the weight; set Options.DefaultWeight to weigh the edges that have none", gr.weightKey.id), Err: errInvalid}
	}
	w, err := weight(line, field, text)
	if err != nil {
		err.(*ParseError).Elem = e.name()
		return 0, err
	}
	gr.sawWeight = true
	return w, nil
}
