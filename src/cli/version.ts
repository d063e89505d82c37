/** The package's version, as `l9kit --version` and the reports l9kit writes name it (a test keeps it equal to package.json's). */
export const VERSION = '0.2.0'
