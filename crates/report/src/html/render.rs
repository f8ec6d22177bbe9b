//! Writes the report page: one self-contained HTML document with inline
//! CSS, a table of contents and one section per result folder.

use std::fmt::Write as _;

use super::{Section, Table, escape};

/// Tables longer than this start folded (`<details>`), so the charts stay
/// near the top of a section.
const FOLDED_ROWS: usize = 40;

const STYLE: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f4f5f7; color: #1d2330;
  font: 15px/1.45 "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 20px 40px; }
header h1 { margin: 0 0 4px; font-size: 26px; }
header p { margin: 0 0 10px; color: #555d6e; }
nav ol { margin: 0 0 8px; padding-left: 22px; }
nav a { color: #2f5597; }
section { background: #fff; border: 1px solid #d9dce3; border-radius: 6px;
  padding: 16px 20px 20px; margin: 18px 0; }
h2 { margin: 0 0 2px; font-size: 21px; }
h2 .command { display: inline-block; min-width: 0; margin-right: 8px; padding: 1px 8px;
  border-radius: 4px; background: #2f5597; color: #fff; font-size: 15px; vertical-align: 2px; }
.folder { margin: 0 0 12px; color: #555d6e; font-size: 13px; word-break: break-all; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 3px 16px;
  margin: 0 0 12px; font-size: 14px; }
dl.facts dt { color: #555d6e; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.reproduce { margin: 0 0 14px; }
.reproduce p { margin: 0 0 3px; font-size: 13px; color: #555d6e; }
pre { margin: 0; padding: 8px 10px; background: #1d2330; color: #e8ebf2; border-radius: 4px;
  font: 13px/1.4 "DejaVu Sans Mono", "Liberation Mono", monospace; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.tables { display: flex; flex-wrap: wrap; gap: 14px 24px; align-items: flex-start; margin-bottom: 10px; }
figure { margin: 0; min-width: 0; max-width: 100%; }
figcaption { font-size: 13px; color: #555d6e; margin: 0 0 4px; max-width: 60em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 9px; border-bottom: 1px solid #e3e6ec; white-space: nowrap; text-align: left; }
th { background: #eef0f4; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #fafbfc; }
details summary { cursor: pointer; font-size: 13px; color: #2f5597; margin-bottom: 4px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 14px; }
.chart { border: 1px solid #e3e6ec; border-radius: 4px; padding: 6px; background: #fff; }
.chart svg { display: block; width: 100%; height: auto; }
.chart figcaption { margin: 4px 0 0; }
.missing { color: #a33; font-size: 13px; }
footer { color: #555d6e; font-size: 13px; }
"#;

/// The whole page for `sections`.
pub fn render(sections: &[Section]) -> String {
    let mut html = String::new();
    let titles: Vec<String> = sections
        .iter()
        .map(|s| format!("{}: {}", s.command, s.title))
        .collect();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"barsoom {version}\">\n\
         <title>barsoom report: {title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <header>\n<h1>barsoom report</h1>\n<p>{count} output folder{plural}, written by barsoom {version}. \
         Rates come with 95% Wilson intervals; each section gives the command that reproduces it.</p>\n",
        version = env!("CARGO_PKG_VERSION"),
        title = escape(&titles.join(", ")),
        count = sections.len(),
        plural = if sections.len() == 1 { "" } else { "s" },
    );
    if sections.len() > 1 {
        html.push_str("<nav><ol>\n");
        for (i, title) in titles.iter().enumerate() {
            let _ = writeln!(
                html,
                "<li><a href=\"#section-{}\">{}</a></li>",
                i + 1,
                escape(title)
            );
        }
        html.push_str("</ol></nav>\n");
    }
    html.push_str("</header>\n");
    for (i, section) in sections.iter().enumerate() {
        render_section(&mut html, section, i + 1);
    }
    html.push_str(
        "<footer>Self-contained: no scripts and no external resources; the charts are the SVG files of each folder.</footer>\n\
         </main>\n</body>\n</html>\n",
    );
    html
}

fn render_section(html: &mut String, section: &Section, number: usize) {
    let _ = write!(
        html,
        "<section id=\"section-{number}\">\n<h2><span class=\"command\">{}</span>{}</h2>\n\
         <p class=\"folder\">{}</p>\n<dl class=\"facts\">\n",
        escape(&section.command),
        escape(&section.title),
        escape(&section.dir.display().to_string()),
    );
    for (label, text) in &section.facts {
        let _ = writeln!(html, "<dt>{}</dt><dd>{}</dd>", escape(label), escape(text));
    }
    html.push_str("</dl>\n<div class=\"reproduce\"><p>Reproduce with:</p>");
    match section.command_line() {
        Some(command) => {
            let _ = write!(html, "<pre><code>{}</code></pre>", escape(command));
        }
        None => {
            html.push_str("<p class=\"missing\">not recorded (written by an older barsoom)</p>")
        }
    }
    html.push_str("</div>\n");
    if !section.tables.is_empty() {
        html.push_str("<div class=\"tables\">\n");
        for table in &section.tables {
            render_table(html, table);
        }
        html.push_str("</div>\n");
    }
    if !section.charts.is_empty() {
        html.push_str("<div class=\"charts\">\n");
        for chart in &section.charts {
            match &chart.svg {
                Ok(svg) => {
                    let _ = write!(
                        html,
                        "<figure class=\"chart\">\n{svg}\n<figcaption>{}</figcaption></figure>\n",
                        escape(&chart.name)
                    );
                }
                Err(why) => {
                    let _ = writeln!(
                        html,
                        "<p class=\"missing\">{}: {}</p>",
                        escape(&chart.name),
                        escape(why)
                    );
                }
            }
        }
        html.push_str("</div>\n");
    }
    html.push_str("</section>\n");
}

fn render_table(html: &mut String, table: &Table) {
    let folded = table.rows.len() > FOLDED_ROWS;
    let _ = write!(
        html,
        "<figure class=\"table\">\n<figcaption>{}</figcaption>\n",
        escape(&table.caption)
    );
    if folded {
        let _ = writeln!(
            html,
            "<details><summary>{} rows</summary>",
            table.rows.len()
        );
    }
    html.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
    let class = |numeric: bool| if numeric { " class=\"num\"" } else { "" };
    for (name, &numeric) in table.headers.iter().zip(&table.numeric) {
        let _ = write!(html, "<th{}>{}</th>", class(numeric), escape(name));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        html.push_str("<tr>");
        for (cell, &numeric) in row.iter().zip(&table.numeric) {
            let _ = write!(html, "<td{}>{}</td>", class(numeric), escape(cell));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody></table></div>\n");
    if folded {
        html.push_str("</details>\n");
    }
    html.push_str("</figure>\n");
}
