import { execFile } from 'node:child_process';

/**
 * The text of a PDF, as a reader extracts it. pdf-parse (pdf.js) loads its worker with a dynamic
 * `import()`, which Jest's module sandbox refuses without --experimental-vm-modules, so the text
 * is extracted by a plain Node child process that reads the PDF from its standard input.
 */
export function pdfText(pdf: Buffer): Promise<string> {
  const script = `
    const { PDFParse } = require('pdf-parse');
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', async () => {
      const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
      const { text } = await parser.getText();
      await parser.destroy();
      process.stdout.write(text);
    });`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { cwd: __dirname, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`pdf-parse failed: ${stderr || error.message}`)) : resolve(stdout),
    );
    child.stdin!.end(pdf);
  });
}
