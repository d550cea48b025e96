package jobs

import "go.yaml.in/yaml/v3"

// Defaults are applied before decoding, so fields a scenario leaves out
// keep them.

// UnmarshalYAML decodes a project over its defaults.
func (p *Project) UnmarshalYAML(n *yaml.Node) error {
	*p = DefaultProject()
	type plain Project
	return n.Decode((*plain)(p))
}

// UnmarshalYAML decodes an app over its defaults.
func (a *App) UnmarshalYAML(n *yaml.Node) error {
	*a = DefaultApp()
	type plain App
	return n.Decode((*plain)(a))
}

// UnmarshalYAML decodes a version over its defaults.
func (v *Version) UnmarshalYAML(n *yaml.Node) error {
	*v = DefaultVersion()
	type plain Version
	return n.Decode((*plain)(v))
}

// UnmarshalYAML decodes a size class; Factor defaults to 1.
func (c *SizeClass) UnmarshalYAML(n *yaml.Node) error {
	*c = SizeClass{Factor: 1}
	type plain SizeClass
	return n.Decode((*plain)(c))
}
