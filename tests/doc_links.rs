//! Every link in `README.md` and `docs/*.md` points at a file that exists, and every
//! `#anchor` at a heading that exists (GitHub's slugs). Links to the web (`http:`,
//! `https:`, `mailto:`) are not followed: the checks must pass offline. Code blocks
//! and code spans are not prose, so what they show is not a link.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// README.md and every Markdown file under docs/, relative to the project's root.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut paths = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .filter_map(|p| p.strip_prefix(root).ok().map(Path::to_path_buf))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    paths.extend(docs);
    paths
}

/// The lines of `text` that are prose: fenced code blocks blanked, code spans removed.
fn prose_lines(text: &str) -> Vec<String> {
    let mut fenced = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return String::new();
            }
            if fenced {
                return String::new();
            }
            // Code spans: drop what lies between backticks.
            line.split('`')
                .enumerate()
                .filter(|(i, _)| i % 2 == 0)
                .map(|(_, part)| part)
                .collect()
        })
        .collect()
}

/// The targets of `[text](target)`, `![alt](target)` and `[label]: target` on a line.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let inside = &after[..end];
        // `[x](<a target>)` may hold spaces; `[x](target "title")` ends at the first.
        let target = match inside.strip_prefix('<') {
            Some(bracketed) => bracketed.split('>').next().unwrap_or(""),
            None => inside.split_whitespace().next().unwrap_or(""),
        };
        targets.push(target.to_string());
        rest = &after[end..];
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some((label, target)) = trimmed.split_once("]:")
        && !label.contains(']')
    {
        targets.push(target.trim().to_string());
    }
    targets
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`),
/// spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings; a repeated slug gets `-1`, `-2`, ....
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..].replace('`', ""));
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// `path` with `.` and `..` resolved, without touching the file system.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// What is wrong with each link of `document`, as `file:line: ...`.
fn broken_links(root: &Path, document: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(document)).unwrap_or_default();
    let base = document.parent().unwrap_or(Path::new(""));
    let mut broken = Vec::new();
    for (index, line) in prose_lines(&text).iter().enumerate() {
        for target in link_targets(line) {
            let place = format!("{}:{}", document.display(), index + 1);
            if target.is_empty() {
                broken.push(format!("{place}: an empty link"));
                continue;
            }
            if ["http://", "https://", "mailto:"]
                .iter()
                .any(|scheme| target.starts_with(scheme))
            {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                document.to_path_buf()
            } else {
                match normalize(&base.join(file)) {
                    Some(path) => path,
                    None => {
                        broken.push(format!("{place}: {target} leaves the project"));
                        continue;
                    }
                }
            };
            if !root.join(&path).exists() {
                broken.push(format!("{place}: {target}: no file {}", path.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if path.extension().is_some_and(|x| x == "md") {
                let linked = std::fs::read_to_string(root.join(&path)).unwrap_or_default();
                if !anchors(&linked).contains(anchor) {
                    broken.push(format!(
                        "{place}: {target}: no heading #{anchor} in {}",
                        path.display()
                    ));
                }
            }
        }
    }
    broken
}

#[test]
fn every_link_in_the_readme_and_docs_points_at_something_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let documents = documents(root);
    assert!(documents.len() > 1, "no docs/*.md found");
    let broken: Vec<String> = documents
        .iter()
        .flat_map(|d| broken_links(root, d))
        .collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn slugs_and_links_are_read_as_github_reads_them() {
    assert_eq!(
        slug("GO!: a game by hand with two nc windows"),
        "go-a-game-by-hand-with-two-nc-windows"
    );
    assert_eq!(
        slug("Bkgo 0.6: one shared room (port 8002)"),
        "bkgo-06-one-shared-room-port-8002"
    );
    assert_eq!(slug("--bot-after and the_bot"), "--bot-after-and-the_bot");
    let seen = anchors("# A\n## A\n```\n# B\n```\n### `C` d\n");
    let expected: HashSet<String> = ["a", "a-1", "c-d"].iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, expected);
    assert_eq!(
        link_targets("see [x](docs/a.md#b) and ![p](img.png \"t\") and [y](<c d.md>)"),
        ["docs/a.md#b", "img.png", "c d.md"]
    );
    assert_eq!(link_targets("[label]: docs/x.md"), ["docs/x.md"]);
    assert_eq!(
        prose_lines("a `[x](y)` b\n```\n[z](w)\n```\n"),
        ["a  b", "", "", ""]
    );
    assert_eq!(
        normalize(Path::new("docs/../src/lib.rs")),
        Some(PathBuf::from("src/lib.rs"))
    );
    assert_eq!(normalize(Path::new("../x")), None);
}
