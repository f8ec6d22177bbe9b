//! `jc.duel`, the Duelling Game: the open display (`open_display`), the
//! Strategic Game's cards played inside a duel (`cards`), and everything
//! beyond the open display: exits, prisoners, carrying, the special
//! characters (`escape`).

mod cards;
mod escape;
mod open_display;
