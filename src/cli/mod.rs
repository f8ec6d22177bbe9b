//! The `barsoom` command line: argument parsing, commands and exit codes.
//!
//! Exit codes: 0 success, 1 a failure while running or writing outputs,
//! 2 bad input (a flag, a scenario or data file) — always one line on
//! stderr, never a panic.

mod analysis;
mod bench;
mod breakdown;
mod commands;
mod jetan;
mod manual;
mod new;
mod races;
mod report;
mod schema;
mod table;
mod tune;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

pub use commands::{bundled_scenarios, execute};
pub use schema::field_reference;

/// Fast, headless Monte Carlo simulation and balance analysis for the
/// tabletop wargames of Barsoom.
#[derive(Debug, Parser)]
#[command(name = "barsoom", version, about, propagate_version = true)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scenario's Monte Carlo trials and write the summary, frames and charts.
    Run(RunArgs),
    /// Solve a scenario exactly (one-against-one fights) and print the same table.
    Exact(ExactArgs),
    /// Check scenario files without running them.
    Validate(ValidateArgs),
    /// List the models and the bundled scenarios.
    List(ListArgs),
    /// Measure engine throughput on the benchmark scenarios.
    Bench(BenchArgs),
    /// Merge the state.json files of a sharded run into the whole run's outputs.
    Merge(MergeArgs),
    /// Run a grid of settings (--vary) on common random numbers: a frame and charts.
    Sweep(SweepArgs),
    /// Compare two scenarios (or one with --set-b changes) on paired trials.
    Compare(CompareArgs),
    /// Search a grid of settings for the one closest to target rates and means.
    Tune(TuneArgs),
    /// Round robin between entrants in both seats: head-to-head matrix and Bradley–Terry ratings.
    Tournament(TournamentArgs),
    /// Break a scenario's games down further than one outcome per trial:
    /// per hero or character, per card or table entry (jc.strategic, talisman.game).
    Breakdown(breakdown::BreakdownArgs),
    /// Write one self-contained HTML report (tables, inline SVG charts, the
    /// command that reproduces each) from output folders.
    Report(ReportArgs),
    /// Jetan engine tools: perft and one game move by move.
    Jetan(jetan::JetanArgs),
    /// Six races of Mars tools: the exact battle matrix for every bonus combination.
    Races(races::RacesArgs),
    /// Write a commented, valid starting scenario for a model.
    New(new::NewArgs),
    /// Print a model's scenario format as JSON Schema (for editors), or
    /// with --markdown its field reference.
    Schema(schema::SchemaArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(manual::CompletionsArgs),
    /// Print the man page (roff): `barsoom man | man -l -`.
    Man,
}

/// Arguments of `barsoom run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    /// Change a field of the scenario or its data files for this command
    /// (repeatable), e.g. `--set sides[0].figures[0].level=9` or
    /// `--set characters.john-carter.level=12`.
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = crate::scenario::Override::parse)]
    pub set: Vec<crate::scenario::Override>,
    /// A Jetan rule flag (repeatable), e.g. `--rule steps=up-to`, as in
    /// `barsoom jetan`: the same as `--set rules.FLAG=VALUE`, applied after
    /// the `--set`s.
    #[arg(long = "rule", value_name = "FLAG=VALUE")]
    pub rules: Vec<String>,
    /// Number of trials.
    #[arg(short = 'n', long, default_value = "1000000", allow_negative_numbers = true, value_parser = parse_count)]
    pub trials: u64,
    /// Seed and threads.
    #[command(flatten)]
    pub sampling: Sampling,
    /// Stop at the first block boundary where every outcome rate's 95%
    /// interval half-width is at most W (deterministic: blocks are fixed).
    #[arg(long, value_name = "W", value_parser = parse_half_width, conflicts_with_all = ["trials", "shard"])]
    pub until_ci: Option<f64>,
    /// With --until-ci: the most trials to run (default 1,000,000,000).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_count, requires = "until_ci")]
    pub max_trials: Option<u64>,
    /// Run only shard K of N (0-based) of the trial indices; merge the
    /// shards' state.json files with `barsoom merge`.
    #[arg(long, value_name = "K/N", value_parser = crate::engine::shard::ShardSpec::parse)]
    pub shard: Option<crate::engine::shard::ShardSpec>,
    /// Trials per block (results do not depend on it; default 16,384, or
    /// fewer when --shard would otherwise leave a shard without trials).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_count, hide = true)]
    pub chunk: Option<u64>,
    /// Output folder (default: reports/<scenario's path under scenarios/>/,
    /// e.g. reports/jc/fleet/even-fight/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write into --out (or the default folder) even when it holds another
    /// scenario's results, replacing them.
    #[arg(long)]
    pub force: bool,
    /// Also stream one row per trial to <out>/trials.parquet.
    #[arg(long)]
    pub trials_out: bool,
    /// Print the summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Replay trial I alone (no files are written).
    #[arg(long, value_name = "I")]
    pub replay: Option<u64>,
    /// With --replay: print the trial's event log (every roll, target and effect).
    #[arg(long, requires = "replay")]
    pub trace: bool,
    /// Continue the interrupted run whose checkpoint.json is in the output
    /// folder (same scenario, seed, -n and --shard); starts afresh if there is none.
    #[arg(long, conflicts_with_all = ["replay", "trials_out"])]
    pub resume: bool,
    /// Seconds between checkpoints written to <out>/checkpoint.json at block
    /// boundaries (0: after every wave of blocks).
    #[arg(long, value_name = "SECS", default_value_t = 30.0, value_parser = parse_seconds)]
    pub checkpoint_secs: f64,
}

/// `--max-trials` when `--until-ci` is given without it.
pub const DEFAULT_MAX_TRIALS: u64 = 1_000_000_000;

/// The master seed and worker threads of a Monte Carlo command.
#[derive(Debug, Args)]
pub struct Sampling {
    /// Master seed: trial i draws from a stream derived from (seed, i);
    /// every setting or run of one command shares it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores; results do not depend on it).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_count)]
    pub threads: Option<u64>,
}

impl Sampling {
    /// Threads for the runner (0 = all cores), at most [`max_threads`].
    pub fn threads(&self) -> Result<usize, commands::InputError> {
        self.threads.map_or(Ok(0), check_threads)
    }
}

/// The most worker threads a command may ask for: four per available core.
/// More cannot run faster and, in the thousands, swamp the machine.
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .saturating_mul(4)
}

/// A `--threads` value, refused above [`max_threads`].
pub(crate) fn check_threads(threads: u64) -> Result<usize, commands::InputError> {
    let most = max_threads();
    match usize::try_from(threads) {
        Ok(t) if t <= most => Ok(t),
        _ => Err(commands::InputError(format!(
            "--threads {threads}: expected at most {most} (4 per available core)"
        ))),
    }
}

/// Arguments of `barsoom exact`.
#[derive(Debug, Args)]
pub struct ExactArgs {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    /// Change a field of the scenario or its data files for this command
    /// (repeatable), e.g. `--set sides[0].figures[0].level=9` or
    /// `--set characters.john-carter.level=12`.
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = crate::scenario::Override::parse)]
    pub set: Vec<crate::scenario::Override>,
    /// Print the solution as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `barsoom validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Scenario files to check.
    #[arg(required = true)]
    pub scenarios: Vec<PathBuf>,
    /// Change a field of the scenario or its data files for this command
    /// (repeatable), e.g. `--set sides[0].figures[0].level=9` or
    /// `--set characters.john-carter.level=12`.
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = crate::scenario::Override::parse)]
    pub set: Vec<crate::scenario::Override>,
    /// Print the results as one JSON object (the exit code still says
    /// whether every scenario is valid).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `barsoom list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print the models and scenarios as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `barsoom report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Output folders of run, merge, sweep, compare, tune, tournament or
    /// bench; one section each, in this order.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The HTML file to write (default: reports/report.html).
    #[arg(long, value_name = "FILE.html")]
    pub out: Option<PathBuf>,
    /// Print the report's path and sections as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `barsoom merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' state.json files.
    #[arg(required = true)]
    pub states: Vec<PathBuf>,
    /// Output folder (default: that of `run` on the shards' scenario).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write into --out (or the default folder) even when it holds another
    /// scenario's results, replacing them.
    #[arg(long)]
    pub force: bool,
    /// Print the merged summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Options shared by the analysis commands (`sweep`, `tune`, `tournament`).
#[derive(Debug, Args)]
pub struct AnalysisOptions {
    /// Seed and threads: every setting, pairing or round shares the seed.
    #[command(flatten)]
    pub sampling: Sampling,
    /// Fixed changes applied to every run (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = crate::scenario::Override::parse)]
    pub set: Vec<crate::scenario::Override>,
    /// Output folder (default: reports/<scenario's path under scenarios/>-<command>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write into --out (or the default folder) even when it holds another
    /// scenario's results, replacing them.
    #[arg(long)]
    pub force: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `barsoom sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    /// A varied field and its values: `PATH=V1,V2,...`, `PATH=A..B` or
    /// `PATH=A..B:STEP` (repeatable; the grid is every combination).
    #[arg(long, required = true, value_name = "PATH=VALUES", value_parser = crate::analysis::sweep::Vary::parse)]
    pub vary: Vec<crate::analysis::sweep::Vary>,
    /// Trials per setting.
    #[arg(short = 'n', long, default_value = "100000", allow_negative_numbers = true, value_parser = parse_count)]
    pub trials: u64,
    /// The outcome labels (or metric names) the printed table shows,
    /// comma-separated (default: every outcome when there are at most five,
    /// else the five most frequent). The files hold them all.
    #[arg(long, value_name = "LABEL,...", value_delimiter = ',')]
    pub show: Vec<String>,
    /// Fixed changes, output folder, JSON.
    #[command(flatten)]
    pub common: AnalysisOptions,
}

/// Arguments of `barsoom compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first scenario.
    pub first: PathBuf,
    /// The second scenario (default: the first, with the --set-b changes).
    pub second: Option<PathBuf>,
    /// Changes applied to both (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = crate::scenario::Override::parse)]
    pub set: Vec<crate::scenario::Override>,
    /// Changes applied to the second only (repeatable).
    #[arg(long = "set-b", value_name = "PATH=VALUE", value_parser = crate::scenario::Override::parse)]
    pub set_b: Vec<crate::scenario::Override>,
    /// Paired trials.
    #[arg(short = 'n', long, default_value = "1000000", allow_negative_numbers = true, value_parser = parse_count)]
    pub trials: u64,
    /// Seed and threads.
    #[command(flatten)]
    pub sampling: Sampling,
    /// Output folder (default: reports/<first's path under scenarios/>-vs-<second's name>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write into --out (or the default folder) even when it holds another
    /// scenario's results, replacing them.
    #[arg(long)]
    pub force: bool,
    /// Print the comparison as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `barsoom tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The scenario file (TOML).
    pub scenario: PathBuf,
    /// A field to search and its values: `PATH=V1,V2,...` or `PATH=A..B:STEP`
    /// (repeatable; the search space is every combination).
    #[arg(long, required = true, value_name = "PATH=VALUES", value_parser = crate::analysis::sweep::Vary::parse)]
    pub vary: Vec<crate::analysis::sweep::Vary>,
    /// A wanted value: `LABEL=RATE` for an outcome or `METRIC=MEAN`
    /// (repeatable), e.g. --target 'John Carter wins=0.35'.
    #[arg(long, required = true, value_name = "NAME=VALUE", value_parser = crate::analysis::tune::Target::parse)]
    pub target: Vec<crate::analysis::tune::Target>,
    /// Trials per setting in the first round (each later round doubles the
    /// total); with --find or --method ntbea, trials per evaluation.
    #[arg(short = 'n', long, default_value = "20000", allow_negative_numbers = true, value_parser = parse_count)]
    pub trials: u64,
    /// Trials of the confirmation run of the winner, on a fresh seed.
    #[arg(long, default_value = "1000000", allow_negative_numbers = true, value_parser = parse_count)]
    pub confirm: u64,
    /// Find where one monotone setting crosses the target instead of the
    /// closest grid point: bisection over the --vary values (one --vary of
    /// increasing numbers, one --target; -n trials per evaluation), the
    /// crossing interpolated between the two settings either side and
    /// confirmed on a fresh seed with an interval.
    #[arg(long)]
    pub find: bool,
    /// How to search several --vary: `halving` runs every setting of the
    /// grid (successive halving); `ntbea` evaluates only some of them,
    /// guided by a model of each parameter's effect (N-Tuple Bandit
    /// Evolutionary Algorithm), for grids too large to run whole.
    #[arg(long, value_enum, default_value_t = TuneMethod::Halving)]
    pub method: TuneMethod,
    /// NTBEA: settings to evaluate, each -n trials [default: 100].
    #[arg(long, value_name = "N")]
    pub evaluations: Option<u64>,
    /// NTBEA: mutated neighbours scored around the current setting at
    /// each step [default: 50].
    #[arg(long, value_name = "N")]
    pub neighbours: Option<u64>,
    /// NTBEA: weight of the exploration bonus, in units of the spread of
    /// the losses seen (0 trusts the model alone) [default: 1].
    #[arg(long, value_name = "K")]
    pub exploration: Option<f64>,
    /// NTBEA: chance that each parameter changes in a neighbour (at least
    /// one always does) [default: 1 / the number of --vary].
    #[arg(long, value_name = "P")]
    pub mutation: Option<f64>,
    /// Fixed changes, output folder, JSON.
    #[command(flatten)]
    pub common: AnalysisOptions,
}

/// How `barsoom tune` searches several `--vary`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TuneMethod {
    /// Every setting of the grid, by successive halving.
    Halving,
    /// The N-Tuple Bandit Evolutionary Algorithm over the grid.
    Ntbea,
}

/// Arguments of `barsoom tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// A two-seat scenario whose outcome 0 is "seat 0 wins" and outcome 1
    /// "seat 1 wins".
    pub scenario: PathBuf,
    /// The field that puts an entrant in seat 0, then in seat 1 (give it
    /// twice), e.g. --seat 'sides[0].figures[0].character'.
    #[arg(long, required = true, value_name = "PATH", value_parser = parse_seat)]
    pub seat: Vec<String>,
    /// The entrants: values of the seat fields, comma-separated.
    #[arg(long, required = true, value_delimiter = ',')]
    pub entrants: Vec<String>,
    /// Trials per pairing and seating.
    #[arg(short = 'n', long, default_value = "100000", allow_negative_numbers = true, value_parser = parse_count)]
    pub trials: u64,
    /// Fixed changes, output folder, JSON.
    #[command(flatten)]
    pub common: AnalysisOptions,
}

/// A seat field: an override path.
fn parse_seat(text: &str) -> Result<String, String> {
    crate::scenario::overrides::parse_path(text)?;
    Ok(text.to_string())
}

/// Arguments of `barsoom bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Models (e.g. wom.duel: their reference scenarios), scenario files,
    /// or `search` (the search players' references, at 100 and 1,000
    /// playouts a decision; minutes) (default: every model's reference
    /// scenarios, scenarios/data/bench.toml, without the search ones).
    pub targets: Vec<String>,
    /// Trials per timing (default: each reference's own count; 2,000,000
    /// for a scenario file).
    #[arg(short = 'n', long, allow_negative_numbers = true, value_parser = parse_count)]
    pub trials: Option<u64>,
    /// Thread counts to measure, comma-separated (default: 1 and all cores;
    /// 1 is always measured, as the base of speed-up and efficiency).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true, value_parser = parse_count)]
    pub threads: Vec<u64>,
    /// Timings per configuration: the median is reported and their spread
    /// is the run-to-run noise.
    #[arg(long, default_value = "3", allow_negative_numbers = true, value_parser = parse_count)]
    pub repeats: u64,
    /// Shortest timing, in seconds: a timing that ends sooner is run again
    /// with more trials (from -n or the reference's count up), so every
    /// thread count is timed about as long (0: exactly -n trials).
    #[arg(long, value_name = "SECS", default_value_t = 0.5, value_parser = parse_seconds)]
    pub min_time: f64,
    /// Output folder for bench.csv, bench.parquet and the chart (default: reports/bench/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write into --out (or the default folder) even when it holds another
    /// scenario's results, replacing them.
    #[arg(long)]
    pub force: bool,
    /// A bench.csv from an earlier run: flag each throughput that moved
    /// beyond the noise both runs measured (exit code 1 on a regression).
    #[arg(long, value_name = "BASELINE.csv")]
    pub compare: Option<PathBuf>,
    /// Print the measurements as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A positive whole number; underscores and commas may group digits.
pub(crate) fn parse_count(text: &str) -> Result<u64, String> {
    let cleaned: String = text.chars().filter(|c| *c != '_' && *c != ',').collect();
    match cleaned.parse::<u64>() {
        Ok(0) => Err(format!("expected a positive whole number, found {text}")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a positive whole number, found {text}")),
    }
}

/// An interval half-width strictly between 0 and 0.5.
fn parse_half_width(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(w) if w > 0.0 && w < 0.5 => Ok(w),
        _ => Err(format!(
            "expected an interval half-width between 0 and 0.5 (e.g. 0.005), found {text}"
        )),
    }
}

/// A number of seconds, zero or more.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("expected a number of seconds >= 0, found {text}")),
    }
}

/// A clap error with its tip and usage: clap's text without its closing
/// "For more information" line.
fn clap_message(rendered: &str) -> String {
    let kept: Vec<&str> = rendered
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.starts_with("For more information"))
        .collect();
    let text = kept.join("\n").trim().to_string();
    if text.is_empty() {
        "error: invalid arguments".to_string()
    } else {
        text
    }
}

/// A clap error in one line: its message up to the first blank line, the
/// lines joined.
fn first_paragraph(rendered: &str) -> String {
    let message: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    if message.is_empty() {
        "error: invalid arguments".to_string()
    } else {
        message.join(" ")
    }
}

/// Parses the command line and runs it, returning the process exit code.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    // `bench`'s own worker processes: not a command for people, so not in
    // the command line's definition (help, completions, man page).
    if args.get(1).is_some_and(|a| a == bench::WORKER) {
        return match bench::WorkerArgs::try_parse_from(&args[1..]) {
            Ok(worker) => exit_code(bench::worker(worker)),
            Err(e) => {
                eprintln!("{}", first_paragraph(&e.render().to_string()));
                ExitCode::from(2)
            }
        };
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // A mistyped flag or subcommand keeps clap's tip ("a similar
            // argument exists: '--trials'") and usage line; any other
            // error is one line.
            let rendered = e.render().to_string();
            let line = if matches!(
                e.kind(),
                ErrorKind::UnknownArgument | ErrorKind::InvalidSubcommand
            ) {
                clap_message(&rendered)
            } else {
                first_paragraph(&rendered)
            };
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };
    exit_code(execute(cli))
}

/// The exit code of a command's result, its error printed as one line.
fn exit_code(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that closed the pipe early (`barsoom list | head`) is not
        // a failure.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            let code = commands::exit_code(&e);
            let message = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {message}");
            ExitCode::from(code)
        }
    }
}
