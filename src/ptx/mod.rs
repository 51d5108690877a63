//! The PTX front end: lexer, parser, AST, printer and checker (the caches
//! and indexes that make them fast are in the private `lookup` module).
//!
//! ```
//! let src = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n";
//! let module = ptx2sass::internals::ptx::parse(src).expect("parses");
//! ptx2sass::internals::ptx::check(&module, &Default::default()).expect("checks");
//! let text = ptx2sass::internals::ptx::print(&module);
//! assert_eq!(ptx2sass::internals::ptx::parse(&text).unwrap(), module);
//! ```

pub mod ast;
pub mod check;
pub mod debug_sections;
pub mod lexer;
mod lookup;
pub mod modifier;
pub mod opcode;
pub mod parser;
pub mod printer;
pub mod scopes;
pub mod signature;

pub use lookup::strindex;

pub use check::CheckOptions;
pub use parser::parse;
pub use printer::print;

use crate::diag::Diagnostics;

/// Checks a parsed module; warnings are dropped on success (use
/// [`check::check`] to get them).
pub fn check(module: &ast::Module, opts: &CheckOptions) -> Result<(), Diagnostics> {
    check::check(module, opts).map(|_| ())
}

/// Parses and checks in one step.
pub fn parse_and_check(source: &str, opts: &CheckOptions) -> Result<ast::Module, Diagnostics> {
    let m = parse(source)?;
    check(&m, opts)?;
    Ok(m)
}
