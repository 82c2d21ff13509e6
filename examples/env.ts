// Shared by the examples: where the API is and which key to use.
export const baseUrl = process.env.SVC_URL ?? 'http://127.0.0.1:8080';
export const apiKey = process.env.SVC_API_KEY ?? '';
if (!apiKey) {
  console.error('Set SVC_API_KEY (and SVC_URL when the API is not on http://127.0.0.1:8080).');
  process.exit(1);
}
