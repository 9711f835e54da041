// The OpenAI Chat Completions wire format the benchmarks' model doubles answer in: streamed chunks and whole answers.

/**
 * The answers of a model double (model "bench") in OpenAI's Chat Completions format, as strings
 * ready to write. Plain JavaScript so that a double run by node as a process of its own
 * (slow-model.mjs) shares it with the TypeScript benchmarks; its types are in completions-wire.d.mts.
 * @param {{ id?: string; created?: number; fingerprint?: string }} [envelope] the `id` ("b") and
 *   `created` (1) every answer carries; `fingerprint`: each streamed chunk also carries this
 *   `system_fingerprint` and `logprobs: null`, as llama.cpp and hosted APIs send them.
 */
export function completionsWire({ id = "b", created = 1, fingerprint } = {}) {
  const head = { id, object: "chat.completion.chunk", created, model: "bench" };
  const chunk = (content) =>
    `data: ${JSON.stringify({
      ...head,
      ...(fingerprint ? { system_fingerprint: fingerprint } : {}),
      choices: [
        { index: 0, delta: { content }, ...(fingerprint ? { logprobs: null } : {}), finish_reason: null },
      ],
    })}\n\n`;
  return {
    chunk,
    stream: (pieces) => `${pieces.map(chunk).join("")}data: [DONE]\n\n`,
    stop: () =>
      `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`,
    whole: (content) =>
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model: "bench",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
  };
}
