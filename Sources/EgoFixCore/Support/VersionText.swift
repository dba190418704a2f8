extension Version {
    /// A version written exactly as EgoFix writes it ("1.3": no "v", no leading zeros, no sign),
    /// so that it matches the version it names wherever versions are compared as text.
    public init?(canonical text: String) {
        guard let v = Version(text), v.description == text else { return nil }
        self = v
    }
}
