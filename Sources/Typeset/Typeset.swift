// The Typeset library: markup → bidi → shaping → line breaking → rendering.

/// The Unicode version of the built-in property tables.
public let unicodeVersion = UnicodeTables.unicodeVersion
