//! What a report may inline and how its text is escaped: an SVG chart is
//! copied into the page only when it is a plain drawing (no scripts, event
//! handlers, links or embedded content).

/// The `<svg>` element of an SVG file, ready to inline: the XML prologue,
/// doctype and comments before it dropped, the namespace attribute (implied
/// in HTML) removed. A file that is not a plain drawing — scripts, event
/// handlers, links, embedded images or HTML, entities — is refused.
pub(crate) fn inline_svg(text: &str) -> Result<String, String> {
    let start = text
        .find("<svg")
        .ok_or_else(|| "not an SVG file: no <svg> element".to_string())?;
    let end = text
        .rfind("</svg>")
        .filter(|&e| e > start)
        .ok_or_else(|| "not an SVG file: the <svg> element is not closed".to_string())?;
    let svg = &text[start..end + "</svg>".len()];
    let lower = svg.to_ascii_lowercase();
    let forbidden = [
        "<script",
        "<foreignobject",
        "<image",
        "<use",
        "<a ",
        "<iframe",
        "<style",
        "<!",
        "<?",
        "href",
        "url(",
        "javascript:",
    ];
    if let Some(found) = forbidden.iter().find(|f| lower.contains(*f)) {
        return Err(format!(
            "left out: it contains {found:?}, and a report inlines only plain drawings"
        ));
    }
    if has_event_handler(&lower) {
        return Err(
            "left out: it has an event-handler attribute, and a report inlines only plain drawings"
                .to_string(),
        );
    }
    Ok(svg.replacen(r#" xmlns="http://www.w3.org/2000/svg""#, "", 1))
}

/// Whether any tag has an `on…=` attribute (an event handler).
fn has_event_handler(lower: &str) -> bool {
    let bytes = lower.as_bytes();
    let name_char = |c: &u8| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_';
    let mut in_tag = false;
    let mut quote: Option<u8> = None;
    for (i, &b) in bytes.iter().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if !in_tag => in_tag = b == b'<',
            None if b == b'>' => in_tag = false,
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None => {
                let after_space = i > 0 && bytes[i - 1].is_ascii_whitespace();
                if after_space && bytes[i..].starts_with(b"on") {
                    let name = bytes[i + 2..].iter().take_while(|c| name_char(c)).count();
                    let next = bytes[i + 2 + name..]
                        .iter()
                        .find(|c| !c.is_ascii_whitespace());
                    if name > 0 && next == Some(&b'=') {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"<b>"Tars" & 'Sola'</b>"#),
            "&lt;b&gt;&quot;Tars&quot; &amp; &#39;Sola&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn inlines_a_plain_svg_without_its_prologue_and_namespace() {
        let file = "<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect x=\"0\" y=\"0\" width=\"5\" height=\"5\"/>\n<text>a &lt; b</text>\n</svg>\n";
        let svg = inline_svg(file).expect("plain drawing");
        assert!(svg.starts_with("<svg width=\"10\""));
        assert!(svg.ends_with("</svg>"));
        assert!(!svg.contains("http"));
        assert!(!svg.contains("<?xml"));
    }

    #[test]
    fn refuses_svgs_that_are_not_plain_drawings() {
        for bad in [
            "<svg><script>alert(1)</script></svg>",
            "<svg><rect onclick=\"x()\"/></svg>",
            "<svg><rect\nonload = 'x()'/></svg>",
            "<svg><image href=\"https://example.com/a.png\"/></svg>",
            "<svg><a xlink:href=\"#x\"><rect/></a></svg>",
            "<svg><rect style=\"fill:url(https://x/y)\"/></svg>",
            "<svg><foreignObject><p>hi</p></foreignObject></svg>",
            "<svg",
            "no svg here",
        ] {
            assert!(inline_svg(bad).is_err(), "{bad:?} was inlined");
        }
        // Text that merely mentions "on" words is fine.
        assert!(inline_svg("<svg><text x=\"1\">one online option=3</text></svg>").is_ok());
    }
}
