//! Keeps a site's own templates from crashing the process.
//!
//! Tera renders includes, parent templates and macro calls by recursion on the thread's stack
//! and has no depth limit of its own, so a template that includes itself (directly or through
//! others) or a macro that calls itself without end overflows the stack. A stack overflow is not
//! a panic: Rust aborts the whole process, with no file or line, and leaves the half-written
//! output folder behind. Nothing can catch it afterwards, so it has to be prevented:
//!
//! - Includes, parent templates (`extends`) and imports name their template with a string
//!   literal, so every possible path between templates is known before anything renders. A
//!   cycle among them ([`cycles`]) is refused when the templates are compiled, with the file and
//!   line of the tag that closes it. This is total: no include chain without a cycle is deeper
//!   than the number of templates.
//! - Macros may legitimately call themselves (a nested table of contents), and whether such a
//!   recursion ends depends on the data, which no static check can decide. So every macro gets a
//!   guard as its first statement ([`add_guards`]) that measures how much stack the render has
//!   used since it began and fails the render, naming the macro, once that passes
//!   [`STACK_BUDGET`]. Measuring the stack itself rather than counting calls holds however large
//!   a frame Tera's version or the macro's body makes; the budget is half of the smallest stack
//!   a render runs on (Rust's 2 MiB for spawned threads, rayon's workers included). Blocks and
//!   includes get the same guard, so a long chain of templates without a cycle, each nested
//!   deep, stops with an error too.
//! - Within one template, nesting is bounded in the source ([`too_deep`]) before Tera parses it,
//!   so the stack used between two guards is bounded as well.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap};

use tera::ast::{Expr, ExprVal, FunctionCall, Node, WS};
use tera::Tera;

use crate::diag::Diagnostic;

/// How far below the start of a render a macro may still begin. Half of a spawned thread's
/// default 2 MiB stack: what is left covers the frames a render uses before its first macro and
/// the deepest single macro body, with room to spare. Real templates stay far below it: a macro
/// level takes a few kilobytes, so this is hundreds of levels.
pub const STACK_BUDGET: usize = 1024 * 1024;

/// [`STACK_BUDGET`], or half of a smaller default thread stack set with `RUST_MIN_STACK`
/// (which sets the stack of rayon's workers too, where pages render).
fn budget() -> usize {
    static BUDGET: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| {
        let min_stack = std::env::var("RUST_MIN_STACK")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok());
        min_stack.map_or(STACK_BUDGET, |s| STACK_BUDGET.min(s / 2))
    })
}

/// The name the guard is registered under; no site would name a function this.
const GUARD: &str = "__rulebook_macro_guard";

thread_local! {
    /// Where the current render's stack began (0: no render under way on this thread).
    static STACK_TOP: Cell<usize> = const { Cell::new(0) };
    /// The guard that stopped the render on this thread.
    static TRIPPED: RefCell<Option<Tripped>> = const { RefCell::new(None) };
}

/// An address on the current stack: how deep the thread is.
#[inline(never)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Runs one render (`f`) with its stack start recorded for the macro guards.
pub fn guarded<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            STACK_TOP.with(|t| t.set(self.0));
        }
    }
    let previous = STACK_TOP.with(|t| t.get());
    let _restore = Restore(previous);
    if previous == 0 {
        STACK_TOP.with(|t| t.set(stack_position()));
    }
    TRIPPED.with(|t| t.borrow_mut().take());
    f()
}

/// Where a guard stopped a render: the template, and the `macro`, `include` or `block` tag
/// the guard stands for with the name in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Tripped {
    pub template: String,
    pub tag: String,
    pub name: String,
}

/// The guard that stopped the last render on this thread, if one did.
pub fn take_tripped() -> Option<Tripped> {
    TRIPPED.with(|t| t.borrow_mut().take())
}

/// The diagnostic for a render stopped by a guard, at the line of the tag it stands for.
pub fn tripped_diagnostic(t: &Tripped, templates: &BTreeMap<String, String>) -> Diagnostic {
    let name = t.name.as_str();
    let line = templates
        .get(&t.template)
        .and_then(|src| {
            tags(src).into_iter().find(|g| {
                tag_word(g.text) == t.tag
                    && match t.tag.as_str() {
                        "macro" => macro_name(g.text) == Some(name),
                        "block" => g.text.split_whitespace().nth(1) == Some(name),
                        _ => literals(g.text).any(|l| l == name),
                    }
            })
        })
        .map_or(0, |g| g.line);
    let what = match t.tag.as_str() {
        "macro" => format!("macro `{name}` calls itself (directly or through other macros) without end, or nests far deeper than any page needs"),
        tag => format!("rendering nests too deeply at this `{tag}` of {name}: a macro calls itself through it without end, or templates, blocks and macros nest far deeper than any page needs"),
    };
    Diagnostic::error(
        "template",
        format!("templates/{}", t.template),
        line,
        format!("{what}; make sure recursion stops, e.g. under an `{{% if %}}` that becomes false"),
    )
}

/// The guard: fails once the render has used [`STACK_BUDGET`].
struct MacroGuard;

impl tera::Function for MacroGuard {
    fn call(&self, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
        let top = STACK_TOP.with(|t| t.get());
        if top != 0 && top.abs_diff(stack_position()) > budget() {
            let arg = |k: &str| {
                args.get(k)
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_string()
            };
            let t = Tripped {
                template: arg("template"),
                tag: arg("tag"),
                name: arg("name"),
            };
            let msg = format!("{} `{}` in {} nests too deeply", t.tag, t.name, t.template);
            TRIPPED.with(|slot| *slot.borrow_mut() = Some(t));
            return Err(tera::Error::msg(msg));
        }
        Ok(tera::Value::String(String::new()))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// A call of the guard, standing for the `tag` named `name` of `template`.
fn guard_node(template: &str, tag: &str, name: &str) -> Node {
    let mut args = HashMap::new();
    for (k, v) in [("template", template), ("tag", tag), ("name", name)] {
        args.insert(k.to_string(), Expr::new(ExprVal::String(v.to_string())));
    }
    let call = FunctionCall {
        name: GUARD.to_string(),
        args,
    };
    Node::VariableBlock(WS::default(), Expr::new(ExprVal::FunctionCall(call)))
}

/// Puts a guard before every include and at the start of every block body in `nodes`. Macro
/// definitions are skipped: Tera renders macros from [`tera::Template::macros`], not from here.
fn guard_nodes(nodes: &mut Vec<Node>, template: &str) {
    let mut i = 0;
    while i < nodes.len() {
        match &mut nodes[i] {
            Node::Include(_, names, _) => {
                let name = names.first().cloned().unwrap_or_default();
                nodes.insert(i, guard_node(template, "include", &name));
                i += 1;
            }
            Node::Block(_, b, _) => guard_block(b, template),
            Node::FilterSection(_, f, _) => guard_nodes(&mut f.body, template),
            Node::Forloop(_, f, _) => {
                guard_nodes(&mut f.body, template);
                if let Some(body) = &mut f.empty_body {
                    guard_nodes(body, template);
                }
            }
            Node::If(c, _) => {
                for (_, _, body) in &mut c.conditions {
                    guard_nodes(body, template);
                }
                if let Some((_, body)) = &mut c.otherwise {
                    guard_nodes(body, template);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

fn guard_block(b: &mut tera::ast::Block, template: &str) {
    guard_nodes(&mut b.body, template);
    b.body.insert(0, guard_node(template, "block", &b.name));
}

/// Puts the stack guard at the start of every macro and block and before every include of
/// every template in `tera`: every way a render goes deeper than one template's own nesting
/// (which [`too_deep`] bounds) passes one of them.
pub fn add_guards(tera: &mut Tera) {
    tera.register_function(GUARD, MacroGuard);
    for (tname, template) in tera.templates.iter_mut() {
        guard_nodes(&mut template.ast, tname);
        for (mname, def) in template.macros.iter_mut() {
            guard_nodes(&mut def.body, tname);
            def.body.insert(0, guard_node(tname, "macro", mname));
        }
        // what Tera renders for a block when templates extend one another: copies of the
        // blocks of every template in the chain
        for defs in template.blocks_definitions.values_mut() {
            for (owner, block) in defs.iter_mut() {
                guard_block(block, owner);
            }
        }
    }
}

/// How one template reaches another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Include,
    Extends,
    Import,
}

impl Edge {
    fn word(self) -> &'static str {
        match self {
            Edge::Include => "include",
            Edge::Extends => "extends",
            Edge::Import => "import",
        }
    }
}

/// The templates `nodes` include (the one Tera would render of a list) and extend, outside
/// macro bodies: an include in a macro runs only when the macro is called, and the macro's
/// guard stops a recursion through it.
fn render_edges(nodes: &[Node], tera: &Tera, out: &mut Vec<(Edge, String)>) {
    for node in nodes {
        match node {
            Node::Include(_, names, _) => {
                if let Some(n) = names.iter().find(|n| tera.templates.contains_key(*n)) {
                    out.push((Edge::Include, n.clone()));
                }
            }
            Node::Extends(_, name) => out.push((Edge::Extends, name.clone())),
            Node::Block(_, b, _) => render_edges(&b.body, tera, out),
            Node::FilterSection(_, f, _) => render_edges(&f.body, tera, out),
            Node::Forloop(_, f, _) => {
                render_edges(&f.body, tera, out);
                render_edges(f.empty_body.as_deref().unwrap_or(&[]), tera, out);
            }
            Node::If(i, _) => {
                for (_, _, body) in &i.conditions {
                    render_edges(body, tera, out);
                }
                if let Some((_, body)) = &i.otherwise {
                    render_edges(body, tera, out);
                }
            }
            _ => {}
        }
    }
}

/// Every template each template reaches: by include or extends (what rendering it renders),
/// and by import (what loading its macros loads). Both kinds recurse in Tera; they are kept
/// apart because an import only loads macro definitions, so a path that mixes an import with
/// includes does not loop.
fn graphs(tera: &Tera) -> [BTreeMap<String, Vec<(Edge, String)>>; 2] {
    let mut render = BTreeMap::new();
    let mut import = BTreeMap::new();
    for (name, t) in &tera.templates {
        let mut edges = Vec::new();
        render_edges(&t.ast, tera, &mut edges);
        render.insert(name.clone(), edges);
        let imports = t
            .imported_macro_files
            .iter()
            .map(|(file, _)| (Edge::Import, file.clone()))
            .collect();
        import.insert(name.clone(), imports);
    }
    [render, import]
}

/// Every template any of `names` needs to render: itself, what it includes, extends and
/// imports, and so on (includes in macro bodies too).
pub fn reached(tera: &Tera, names: &[&str]) -> BTreeSet<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut todo: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) {
            continue;
        }
        let Some(t) = tera.templates.get(&n) else {
            continue;
        };
        let mut edges = Vec::new();
        render_edges(&t.ast, tera, &mut edges);
        for def in t.macros.values() {
            render_edges(&def.body, tera, &mut edges);
        }
        todo.extend(edges.into_iter().map(|(_, to)| to));
        todo.extend(t.imported_macro_files.iter().map(|(f, _)| f.clone()));
    }
    seen
}

/// Cycles among the templates: one error per cycle found, at the tag that closes it.
pub fn cycles(tera: &Tera, sources: &BTreeMap<String, String>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for graph in graphs(tera) {
        // depth-first, in name order so the report is the same on every run
        let mut done: BTreeSet<&str> = BTreeSet::new();
        for start in graph.keys() {
            if done.contains(start.as_str()) {
                continue;
            }
            // the path from `start`: (template, index of its next edge)
            let mut path: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
            while let Some(&(node, i)) = path.last() {
                let edges = graph.get(node).map(Vec::as_slice).unwrap_or(&[]);
                let Some((edge, to)) = edges.get(i) else {
                    done.insert(node);
                    path.pop();
                    continue;
                };
                path.last_mut().expect("path is not empty").1 += 1;
                if done.contains(to.as_str()) || !graph.contains_key(to) {
                    continue;
                }
                if let Some(at) = path.iter().position(|(n, _)| *n == to.as_str()) {
                    let circle: Vec<&str> = path[at..].iter().map(|(n, _)| *n).collect();
                    out.push(cycle_diagnostic(&circle, *edge, to, &graph, sources));
                    continue;
                }
                path.push((to.as_str(), 0));
            }
        }
    }
    out
}

fn cycle_diagnostic(
    circle: &[&str],
    closing: Edge,
    to: &str,
    graph: &BTreeMap<String, Vec<(Edge, String)>>,
    sources: &BTreeMap<String, String>,
) -> Diagnostic {
    let from = circle[circle.len() - 1];
    let steps: Vec<String> = circle
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let next = circle.get(k + 1).copied().unwrap_or(to);
            let edge = graph[*n]
                .iter()
                .find(|(_, t)| t == next)
                .map_or(closing, |(e, _)| *e);
            format!("{n} {}s {next}", edge.word())
        })
        .collect();
    let line = sources
        .get(from)
        .and_then(|src| {
            tags(src)
                .into_iter()
                .find(|t| tag_word(t.text) == closing.word() && literals(t.text).any(|l| l == to))
        })
        .map_or(0, |t| t.line);
    let what = if circle.len() == 1 {
        format!("{from} {}s itself", closing.word())
    } else {
        format!("templates form a cycle: {}", steps.join(", "))
    };
    Diagnostic::error(
        "template",
        format!("templates/{from}"),
        line,
        format!(
            "{what}, so rendering would never end; remove the `{}` of {to} here or elsewhere in the cycle",
            closing.word()
        ),
    )
}

/// Deepest nesting a template may have: of blocks (`{% if %}` in `{% for %}` in …), and of
/// brackets in one expression. Tera parses and renders both by recursion, so a few thousand
/// levels overflow the stack and abort the process (500 nested `if`s did, when rendered on a
/// 2 MiB thread). Counted in the source before Tera parses it; real templates nest a handful of
/// levels, and this many stays far within the stack the macro guard leaves.
pub const MAX_TEMPLATE_DEPTH: usize = 40;

/// Most operators one tag or expression may have (`+`, `and`, `~`, `|`, comparisons, …).
/// Tera parses a chain of them into a tree as deep as the chain is long and evaluates it by
/// recursion too, so a long enough chain overflows the stack and aborts the process with no
/// file named (about 5,000 `+` or 10,000 `and` did, in a build). Real expressions have a
/// handful.
pub const MAX_TAG_OPERATORS: usize = 256;

/// Where `src` nests deeper than [`MAX_TEMPLATE_DEPTH`], as the diagnostic to show.
pub fn too_deep(name: &str, src: &str) -> Option<Diagnostic> {
    let error = |line: usize, what: &str, fix: &str| {
        Diagnostic::error(
            "template",
            format!("templates/{name}"),
            line,
            format!("{what} nest more than {MAX_TEMPLATE_DEPTH} deep here, more than any page needs and more than rendering can follow; {fix}"),
        )
    };
    let mut depth = 0usize;
    for t in regions(src) {
        if t.statement {
            match tag_word(t.text) {
                "if" | "for" | "block" | "macro" | "filter" => {
                    depth += 1;
                    if depth > MAX_TEMPLATE_DEPTH {
                        return Some(error(
                            t.line,
                            "statements (`{% if %}`, `{% for %}`, …)",
                            "flatten the template (a macro or an included template can take a part out)",
                        ));
                    }
                }
                "endif" | "endfor" | "endblock" | "endmacro" | "endfilter" => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
        }
        let mut brackets = 0usize;
        let mut quote = None;
        let mut operators = 0usize;
        // the start of the word being read, outside quotes
        let mut word: Option<usize> = None;
        let mut in_op = false;
        for (i, c) in t.text.char_indices() {
            if quote.is_none() {
                if c.is_alphanumeric() || c == '_' {
                    word.get_or_insert(i);
                } else if let Some(w) = word.take() {
                    operators += usize::from(is_word_operator(&t.text[w..i]));
                }
                // `==`, `<=`, `!=` are one operator each: a run of these characters counts once
                let op = "+-*/%~|<>=!".contains(c);
                operators += usize::from(op && !in_op);
                in_op = op;
                if operators > MAX_TAG_OPERATORS {
                    let line = t.line + t.text[..i].matches('\n').count();
                    return Some(Diagnostic::error(
                        "template",
                        format!("templates/{name}"),
                        line,
                        format!("this expression has more than {MAX_TAG_OPERATORS} operators, more than any page needs and more than rendering can follow; split it (a `{{% set %}}` can hold a part of it)"),
                    ));
                }
            }
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'' | '`') => quote = Some(c),
                (None, '(' | '[' | '{') => {
                    brackets += 1;
                    if brackets > MAX_TEMPLATE_DEPTH {
                        let line = t.line + t.text[..i].matches('\n').count();
                        return Some(error(
                            line,
                            "brackets",
                            "split the expression (a `{% set %}` can hold a part of it)",
                        ));
                    }
                }
                (None, ')' | ']' | '}') => brackets = brackets.saturating_sub(1),
                _ => {}
            }
        }
    }
    None
}

/// Whether `word` is one of Tera's operators written as a word.
fn is_word_operator(word: &str) -> bool {
    matches!(word, "and" | "or" | "not" | "in" | "is")
}

/// A `{% … %}` tag, or a `{{ … }}` expression, of a template's source.
#[derive(Debug, PartialEq)]
struct Tag<'a> {
    line: usize,
    /// What is between the delimiters, without whitespace control and spaces.
    text: &'a str,
    /// `{% … %}` rather than `{{ … }}`.
    statement: bool,
}

/// The statement tags of `src`, in order: enough to find the line of a tag Tera's syntax tree
/// (which has no positions) names.
fn tags(src: &str) -> Vec<Tag<'_>> {
    let mut v = regions(src);
    v.retain(|t| t.statement);
    v
}

/// The tags and expressions of `src`, in order, skipping comments and raw blocks.
fn regions(src: &str) -> Vec<Tag<'_>> {
    let mut out = Vec::new();
    let mut rest = src;
    let mut offset = 0;
    let mut in_raw = false;
    // lines counted up to byte `counted`: counting from the start for every tag was quadratic
    let (mut line, mut counted) = (1, 0);
    while let Some(i) = rest.find('{') {
        let at = &rest[i..];
        let close = if at.starts_with("{%") {
            "%}"
        } else if at.starts_with("{#") {
            "#}"
        } else if at.starts_with("{{") {
            "}}"
        } else {
            offset += i + 1;
            rest = &rest[i + 1..];
            continue;
        };
        let Some(end) = at[2..].find(close) else {
            break;
        };
        let inner = &at[2..2 + end];
        let start = offset + i;
        offset += i + 2 + end + 2;
        rest = &at[2 + end + 2..];
        let statement = close == "%}";
        if close == "#}" || (in_raw && !statement) {
            continue;
        }
        let text = inner.trim_matches('-').trim();
        if in_raw {
            in_raw = text != "endraw";
            continue;
        }
        if statement && text == "raw" {
            in_raw = true;
            continue;
        }
        line += src[counted..start].matches('\n').count();
        counted = start;
        out.push(Tag {
            line,
            text,
            statement,
        });
    }
    out
}

/// The first word of a tag (`include`, `macro`).
fn tag_word(text: &str) -> &str {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("")
}

/// The name of a `macro name(…)` tag.
fn macro_name(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("macro")?.trim_start();
    rest.split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
}

/// The string literals of a tag.
fn literals(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let i = rest.find(['"', '\'', '`'])?;
        let q = rest[i..].chars().next()?;
        let after = &rest[i + 1..];
        let end = after.find(q)?;
        rest = &after[end + 1..];
        Some(&after[..end])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(list: &[(&str, &str)]) -> (Tera, BTreeMap<String, String>) {
        let mut tera = Tera::default();
        tera.add_raw_templates(list.to_vec()).unwrap();
        let sources = list
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (tera, sources)
    }

    #[test]
    fn a_template_including_itself_is_a_cycle_at_its_line() {
        let (tera, src) = compile(&[(
            "c.html",
            "x\n{# {% include \"c.html\" %} #}\n{% include \"c.html\" %}",
        )]);
        let d = cycles(&tera, &src);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].file, std::path::Path::new("templates/c.html"));
        assert_eq!(d[0].line, 3);
        assert!(
            d[0].message.contains("c.html includes itself"),
            "{}",
            d[0].message
        );
    }

    #[test]
    fn mutual_includes_name_every_template_of_the_cycle() {
        let (tera, src) = compile(&[
            ("a.html", "{% include \"b.html\" %}"),
            ("b.html", "\n{% if x %}{%- include 'a.html' -%}{% endif %}"),
        ]);
        let d = cycles(&tera, &src);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].file, std::path::Path::new("templates/b.html"));
        assert_eq!(d[0].line, 2);
        assert!(
            d[0].message
                .contains("a.html includes b.html, b.html includes a.html"),
            "{}",
            d[0].message
        );
    }

    #[test]
    fn a_parent_including_its_child_and_mutual_imports_are_cycles() {
        let (tera, src) = compile(&[
            (
                "base.html",
                "{% block b %}{% endblock %}{% include \"page.html\" %}",
            ),
            (
                "page.html",
                "{% extends \"base.html\" %}{% block b %}x{% endblock %}",
            ),
        ]);
        assert_eq!(cycles(&tera, &src).len(), 1);
        let (tera, src) = compile(&[
            (
                "m.html",
                "{% import \"n.html\" as n %}{% macro f() %}{% endmacro %}",
            ),
            (
                "n.html",
                "{% import \"m.html\" as m %}{% macro g() %}{% endmacro %}",
            ),
        ]);
        let d = cycles(&tera, &src);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].message.contains("imports"), "{}", d[0].message);
    }

    #[test]
    fn shared_includes_imports_and_raw_text_are_not_cycles() {
        let (tera, src) = compile(&[
            ("base.html", "{% import \"m.html\" as m %}{% include \"part.html\" %}{% block b %}{% endblock %}"),
            ("page.html", "{% extends \"base.html\" %}{% block b %}{% include \"part.html\" %}{% raw %}{% include \"page.html\" %}{% endraw %}{% endblock %}"),
            ("part.html", "p"),
            // an import of a template that includes the importer: imports load macros only
            ("m.html", "{% macro f() %}{% include \"part.html\" %}{% endmacro %}"),
        ]);
        assert_eq!(cycles(&tera, &src), vec![]);
    }

    #[test]
    fn tags_skip_comments_expressions_and_raw_blocks() {
        let src = "{{ '{% include \"x\" %}' }}{# {% a %} #}\n{% raw %}{% b %}{% endraw %}\n{%- c \"d\" -%}";
        let t = tags(src);
        assert_eq!(
            t,
            vec![Tag {
                line: 3,
                text: "c \"d\"",
                statement: true,
            }]
        );
        assert_eq!(
            literals("include \"a\" 'b'").collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(macro_name("macro r(n=1)"), Some("r"));
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_refused_at_its_line() {
        let ok =
            "{% if a %}".repeat(MAX_TEMPLATE_DEPTH) + &"{% endif %}".repeat(MAX_TEMPLATE_DEPTH);
        assert_eq!(too_deep("t.html", &ok), None);
        // siblings do not add up
        assert_eq!(too_deep("t.html", &ok.repeat(3)), None);
        let deep = "{% for x in y %}\n".repeat(MAX_TEMPLATE_DEPTH + 1);
        let d = too_deep("t.html", &deep).expect("too deep");
        assert_eq!(d.line, MAX_TEMPLATE_DEPTH + 1);
        let parens = format!("\n{{{{ {}1 }}}}", "(".repeat(MAX_TEMPLATE_DEPTH + 1));
        assert_eq!(too_deep("t.html", &parens).map(|d| d.line), Some(2));
        // brackets in strings, comments and raw text are not nesting
        let quoted = format!(
            "{{{{ '{0}' }}}}{{# {0} #}}{{% raw %}}{{{{ {0} }}}}{{% endraw %}}",
            "(".repeat(99)
        );
        assert_eq!(too_deep("t.html", &quoted), None);
    }

    #[test]
    fn a_chain_of_more_operators_than_the_limit_is_refused_at_its_line() {
        let chain = |op: &str, n: usize| format!("x\n{{{{ 1{} }}}}", format!(" {op} 1").repeat(n));
        for op in ["+", "and", "or", "~", "|", "=="] {
            assert_eq!(
                too_deep("t.html", &chain(op, MAX_TAG_OPERATORS)),
                None,
                "{op}"
            );
            let d = too_deep("t.html", &chain(op, MAX_TAG_OPERATORS + 1)).expect(op);
            assert_eq!(d.line, 2, "{op}");
            assert!(d.message.contains("operators"), "{}", d.message);
        }
        // operators in strings are text, and words that only contain one are not operators
        let text = format!("{{{{ '{}' ~ index ~ island }}}}", "+".repeat(999));
        assert_eq!(too_deep("t.html", &text), None);
        // separate expressions do not add up
        assert_eq!(too_deep("t.html", &chain("+", 200).repeat(3)), None);
    }

    #[test]
    fn a_long_chain_of_deeply_nested_includes_fails_the_render_instead_of_the_process() {
        let n = MAX_TEMPLATE_DEPTH - 1;
        let mut list: Vec<(String, String)> = (0..200)
            .map(|i| {
                let body = format!(
                    "{}{{% include \"t{}.html\" %}}{}",
                    "{% if true %}".repeat(n),
                    i + 1,
                    "{% endif %}".repeat(n)
                );
                (format!("t{i}.html"), body)
            })
            .collect();
        list.push(("t200.html".into(), "end".into()));
        let mut tera = Tera::default();
        tera.add_raw_templates(list.clone()).unwrap();
        add_guards(&mut tera);
        let (err, tripped) = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || {
                let r = guarded(|| tera.render("t0.html", &tera::Context::new()));
                (r.is_err(), take_tripped())
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(err);
        let t = tripped.expect("a guard tripped");
        assert_eq!(t.tag, "include");
        let sources: BTreeMap<String, String> = list.into_iter().collect();
        let d = tripped_diagnostic(&t, &sources);
        assert_eq!(d.line, 1);
        assert!(d.message.contains("this `include` of t"), "{}", d.message);
    }

    #[test]
    fn an_endless_macro_fails_the_render_instead_of_the_process() {
        let (mut tera, src) = compile(&[(
            "m.html",
            "{% macro r(n) %}{{ self::r(n=n) }}{% endmacro %}\n{% macro toc(d) %}{% if d > 0 %}<{{ self::toc(d=d - 1) }}>{% endif %}{% endmacro %}\n{{ self::toc(d=3) }}{% if go %}{{ self::r(n=1) }}{% endif %}",
        )]);
        add_guards(&mut tera);
        let mut ctx = tera::Context::new();
        ctx.insert("go", &false);
        // a recursion that ends renders as before
        let out = std::thread::spawn(move || {
            let ok = guarded(|| tera.render("m.html", &ctx));
            ctx.insert("go", &true);
            let err = guarded(|| tera.render("m.html", &ctx));
            (ok, err.is_err(), take_tripped())
        })
        .join()
        .unwrap();
        assert_eq!(out.0.unwrap().trim(), "<<<>>>");
        assert!(out.1);
        let t = out.2.expect("the guard tripped");
        let d = tripped_diagnostic(&t, &src);
        assert_eq!((d.line, d.file.to_str()), (1, Some("templates/m.html")));
        assert!(d.message.contains("macro `r`"), "{}", d.message);
    }
}
