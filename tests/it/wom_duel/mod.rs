//! `wom.duel`, the Warriors of Mars duel: rules cases worked by hand
//! (`rules`) and the exact Markov chain against Monte Carlo
//! (`exact_vs_monte_carlo`).

mod exact_vs_monte_carlo;
mod rules;
