// The pages of one side of `typeset diff` (SPEC §5.5): a PNG file, or markup's pages drawn in
// memory as they are compared.

/// One side of a comparison of pages: a PNG file (one page), or laid-out pages drawn as PNG in
/// memory, one at a time and in page order, as `compare` asks for them. (Markup was rendered to
/// PNG files in a temporary folder and read back: a signal left the folder behind, and every
/// page was encoded, written, read and decoded.)
public final class ComparedPages {
    private enum Source {
        case file(String)
        case drawn([Page], input: String, scale: Double, drawer: PageDrawer)
    }
    private let source: Source
    /// The next page to draw: a drawer carries the structure tags open from page to page.
    private var nextDrawn = 0

    /// The page of the PNG file at `path`, read when compared.
    public init(file path: String) {
        source = .file(path)
    }

    /// `pages` (of the markup file `input`) drawn at `scale` pixels per point when compared.
    /// Throws, before any page is drawn, what `render(pages:to:options:)` to PNG would throw of
    /// their sizes; a page that cannot be drawn throws `ImageDiffError.undrawable` when compared.
    public init(pages: [Page], of input: String, scale: Double) throws {
        try checkSizes(of: pages)
        for (index, page) in pages.enumerated() {
            try checkPNGSize(page, pageNumber: index + 1, scale: scale)
        }
        source = .drawn(pages, input: input, scale: scale, drawer: PageDrawer())
    }

    /// The pictures the pages show (resolved paths, `picturesShown(on:)`); none for a PNG file.
    public var shownPictures: Set<String> {
        guard case .drawn(let pages, _, _, _) = source else { return [] }
        return picturesShown(on: pages)
    }

    public var count: Int {
        switch source {
        case .file: 1
        case .drawn(let pages, _, _, _): pages.count
        }
    }

    /// A page of page `index`'s size and background with nothing on it, drawn as the page is;
    /// nil for a PNG file, whose background is not known.
    func blankImage(_ index: Int) throws -> PixelImage? {
        guard case .drawn(let pages, let input, let scale, _) = source else { return nil }
        do {
            return try Self.blankImage(like: pages[index], pageNumber: index + 1, scale: scale)
        } catch {
            throw ImageDiffError.undrawable(path: input, reason: "\(error)")
        }
    }

    /// `page`'s size and background with nothing on it, drawn at `scale` (also what `snapshot`
    /// compares a page without a reference with).
    static func blankImage(like page: Page, pageNumber: Int, scale: Double) throws -> PixelImage {
        try drawImage(
            Page(width: page.width, height: page.height, background: page.background), pageNumber: pageNumber,
            scale: scale, drawer: PageDrawer()
        ) { surface in try PixelImage(drawn: surface) }
    }

    /// Page `index`'s pixels and resolution (its PNG's pHYs data, if any). Drawn pages must be
    /// asked for in order, each once.
    func image(_ index: Int) throws -> (image: PixelImage, resolution: [UInt8]?) {
        switch source {
        case .file(let path):
            return (try PixelImage(contentsOf: path), PNGFile.resolution(ofFileAt: path))
        case .drawn(let pages, let input, let scale, let drawer):
            precondition(index == nextDrawn, "pages are drawn in order")
            nextDrawn += 1
            do {
                // (The resolution its PNG would say: every page's encoder writes it.)
                let drawn = try drawImage(pages[index], pageNumber: index + 1, scale: scale, drawer: drawer) { surface in
                    (try PixelImage(drawn: surface), Optional(PNGEncoder.resolution(pixelsPerPoint: scale)))
                }
                if nextDrawn == pages.count { try drawer.checkTagsClosed(pageCount: pages.count) }
                return drawn
            } catch {
                throw ImageDiffError.undrawable(path: input, reason: "\(error)")
            }
        }
    }
}

/// Page `index` of both sides compared, or of one side against a blank page: the result, and
/// the diff image made on request.
public struct PageComparison {
    let comparison: Comparison
    /// The resolution of the page the diff image is made from (A's, or the lone page's).
    let resolution: [UInt8]?

    public var result: ImageDiffResult { comparison.result }

    /// The diff image for `output`, not written yet (`ImageDiff.write`).
    public func diffImage(for output: String) throws -> DiffImage {
        try ImageDiff.diffImage(comparison, for: output, resolution: resolution)
    }
}

extension ImageDiff {
    /// Compares page `index` of `a` and `b` as `compare` compares two files.
    public static func compare(page index: Int, of a: ComparedPages, _ b: ComparedPages, tolerance: Int) throws
        -> PageComparison
    {
        let (imageA, resolution) = try a.image(index)
        let imageB = try b.image(index).image
        return PageComparison(comparison: Comparison(imageA, imageB, tolerance: tolerance), resolution: resolution)
    }

    /// Compares page `index` of `side`, which the other side lacks, with a blank page of its
    /// size and background (`Comparison.init(lonePage:blank:pageIsA:tolerance:)`), as `ImageDiff.writeDiffImage(lonePage:pageIsA:tolerance:to:)` does.
    public static func compare(lonePage index: Int, of side: ComparedPages, pageIsA: Bool, tolerance: Int) throws
        -> PageComparison
    {
        let (image, resolution) = try side.image(index)
        let comparison = Comparison(lonePage: image, blank: try side.blankImage(index), pageIsA: pageIsA, tolerance: tolerance)
        return PageComparison(comparison: comparison, resolution: resolution)
    }
}
