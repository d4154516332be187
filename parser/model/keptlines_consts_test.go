package model

// keptTailLines stands for the reader's tail bound (parser.TailLines) in these tests.
const keptTailLines = 60
const keptErrorLines = 20
