//! `npuzzle man`: one whole manual page, every command with every option, the exit statuses
//! and the environment.
//!
//! clap_mangen renders one page per command and points from the main page to
//! `npuzzle-solve(1)` and the like, which nothing installs: a user of `npuzzle man` got the
//! global options only and references to pages that do not exist. Here the main page's
//! sections are followed by one section per command (nested ones too, `npuzzle pdb build`),
//! each with its synopsis, description and options.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_mangen::Man;

use crate::args::Cli;

/// What the exit statuses mean, for every command (roff).
const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Success: every board solved (solve, hint), the moves reach the goal (check), every length as expected (bench).
.TP
\fB1\fR
check: the moves do not reach the goal, or with \-\-optimal are longer than the optimum. bench: a length differs from the expected one. pdb verify: a database file is damaged.
.TP
\fB2\fR
Invalid input or usage, or output that cannot be written (a full disk, a closed standard output), or a database that cannot be saved (pdb build).
.TP
\fB3\fR
A board cannot reach its goal (it is unsolvable).
.TP
\fB4\fR
A limit (nodes, memory, time) was reached, or the search was cancelled (Ctrl\-C, SIGTERM, SIGHUP).
.PP
With several boards, the highest status of them all (bench: 1 first, then the highest). Every non\-zero status comes with a one\-line reason on standard error, prefixed "npuzzle: ".
"#;

/// The environment variables read (roff).
const ENVIRONMENT: &str = r#".SH ENVIRONMENT
.TP
\fBNPUZZLE_CACHE\fR
Where pattern databases are kept; default the platform cache directory's npuzzle/ ($XDG_CACHE_HOME/npuzzle or ~/.cache/npuzzle on Linux).
.TP
\fBNPUZZLE_CACHE_MAX\fR
The cache's size cap in MiB (default 1024): saving a database removes the least recently used others past it.
.TP
\fBNO_COLOR\fR
Set and not empty: npuzzle play draws without colours.
.TP
\fBRUST_LOG\fR
The log filter of npuzzle serve (default info).
"#;

/// Writes the whole page.
///
/// # Errors
/// When `out` cannot be written.
pub fn render(out: &mut dyn Write) -> io::Result<()> {
    let mut cli = Cli::command();
    // Built, every subcommand knows its full name (`npuzzle pdb build`) for its synopsis.
    cli.build();
    let main = Man::new(cli.clone());
    main.render_title(out)?;
    main.render_name_section(out)?;
    main.render_synopsis_section(out)?;
    main.render_description_section(out)?;
    main.render_options_section(out)?;
    commands(out, &cli)?;
    out.write_all(EXIT_STATUS.as_bytes())?;
    out.write_all(ENVIRONMENT.as_bytes())?;
    main.render_version_section(out)
}

/// One section per subcommand of `cmd`, depth first.
fn commands(out: &mut dyn Write, cmd: &clap::Command) -> io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        let name = sub.get_bin_name().unwrap_or(sub.get_name()).to_uppercase();
        writeln!(out, ".SH \"{}\"", name.replace('"', ""))?;
        let page = Man::new(sub.clone());
        let mut text = Vec::new();
        page.render_synopsis_section(&mut text)?;
        page.render_description_section(&mut text)?;
        page.render_options_section(&mut text)?;
        let text = String::from_utf8_lossy(&text);
        for line in text.lines() {
            // The command's own sections become subsections of its section.
            let line = match line.strip_prefix(".SH ") {
                Some("SYNOPSIS" | "DESCRIPTION") => continue,
                Some(heading) => format!(".SS {}", heading.trim_matches('"')),
                None => line.to_string(),
            };
            writeln!(out, "{line}")?;
        }
        commands(out, sub)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> String {
        let mut page = Vec::new();
        render(&mut page).unwrap();
        String::from_utf8(page).unwrap()
    }

    #[test]
    fn the_page_had_no_option_of_any_command_and_no_exit_statuses() {
        let page = page();
        let mut cli = Cli::command();
        cli.build();
        let mut stack = vec![cli];
        let mut seen = 0;
        while let Some(cmd) = stack.pop() {
            for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
                if let Some(long) = arg.get_long() {
                    let roff = format!("\\-\\-{}", long.replace('-', "\\-"));
                    assert!(page.contains(&roff), "{} --{long} is not on the page", cmd.get_name());
                    seen += 1;
                }
            }
            stack.extend(cmd.get_subcommands().cloned());
        }
        assert!(seen > 40, "only {seen} options");
        for heading in [
            "\"NPUZZLE SOLVE\"",
            "\"NPUZZLE PDB BUILD\"",
            "\"NPUZZLE BENCH\"",
            "\"EXIT STATUS\"",
            "ENVIRONMENT",
        ] {
            assert!(page.contains(&format!(".SH {heading}")), "no section {heading}");
        }
        assert!(page.contains("\\fB4\\fR\nA limit"), "exit status 4 is not explained");
    }

    #[test]
    fn the_page_pointed_to_pages_that_nothing_produces() {
        let page = page();
        assert!(!page.contains("npuzzle\\-solve(1)") && !page.contains("npuzzle-solve(1)"));
        assert!(!page.contains("(1)"), "a reference to another page");
    }
}
