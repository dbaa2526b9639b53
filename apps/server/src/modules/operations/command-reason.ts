/**
 * The gateway records why a command reached its state as an English sentence (evidence.detail,
 * design.md §5). The log shows it in the reader's language: each known sentence has a Chinese and
 * an English rendering, and the facts it quotes from a read-back are translated the same way.
 */
export interface Words {
  zh: string;
  en: string;
}

/** Facts a read-back quotes ("relay command open, relay closed", "valve closed", …). */
const FACTS: [RegExp, (m: RegExpMatchArray) => Words][] = [
  [
    /^relay command (open|closed), relay (open|closed)(, power-hold on)?$/,
    (m) => ({
      zh: `命令位${m[1] === "open" ? "断开" : "闭合"}，继电器${m[2] === "open" ? "断开" : "闭合"}${m[3] ? "，保电" : ""}`,
      en: `relay command ${m[1]}, relay ${m[2]}${m[3] ? ", power hold on" : ""}`,
    }),
  ],
  [/^valve (\S+)$/, (m) => ({ zh: `阀门${VALVE_ZH[m[1]!] ?? m[1]}`, en: `valve ${m[1]}` })],
  [/^purchase count (\d+)$/, (m) => ({ zh: `购电次数 ${m[1]}`, en: `purchase count ${m[1]}` })],
  [/^(\w+) = (.*)$/, (m) => ({ zh: `${m[1]} = ${m[2]}`, en: `${m[1]} = ${m[2]}` })],
];
const VALVE_ZH: Record<string, string> = { open: "开", closed: "关", abnormal: "异常" };

const fact = (text: string): Words => {
  for (const [pattern, words] of FACTS) {
    const m = text.match(pattern);
    if (m) return words(m);
  }
  return { zh: text, en: text };
};

/** Sentences of the gateway and the server; `(…)` and `: …` parts are facts or raw codes. */
const SENTENCES: [RegExp, (m: RegExpMatchArray) => Words][] = [
  [/^sent$/, () => ({ zh: "已发送，等待应答", en: "Sent, awaiting the reply" })],
  [/^acknowledged$/, () => ({ zh: "表计已确认", en: "The meter acknowledged" })],
  [
    /^acknowledged, valve (\S+)$/,
    (m) => ({
      zh: `表计已确认，阀门${VALVE_ZH[m[1]!] ?? m[1]}`,
      en: `The meter acknowledged, valve ${m[1]}`,
    }),
  ],
  [/^read$/, () => ({ zh: "已读取", en: "Read" })],
  [
    /^acknowledged and verified \((.*)\)$/,
    (m) => withFact("表计已确认，回读核实", "The meter acknowledged; read-back confirms it", m[1]!),
  ],
  [
    /^acknowledged; the verification read got no answer$/,
    () => ({ zh: "表计已确认，核实回读无应答", en: "The meter acknowledged; the check read got no answer" }),
  ],
  [
    /^acknowledged, but the meter shows otherwise \((.*)\)$/,
    (m) =>
      withFact(
        "表计已确认，但回读显示未执行",
        "The meter acknowledged, but read-back shows otherwise",
        m[1]!,
      ),
  ],
  [
    /^no reply; read-back shows the command took effect \((.*)\)$/,
    (m) => withFact("无应答，回读显示已执行", "No reply; read-back shows it took effect", m[1]!),
  ],
  [
    /^no reply; read-back shows the command did not take effect \((.*)\)$/,
    (m) => withFact("无应答，回读显示未执行", "No reply; read-back shows it did not take effect", m[1]!),
  ],
  [
    /^no reply, and the read-back got no answer either$/,
    () => ({
      zh: "无应答，回读也无应答，待确认",
      en: "No reply, and no answer to the read-back: to be confirmed",
    }),
  ],
  [
    /^read-back does not fit: (.*)$/,
    (m) => withFact("回读结果无法判定", "The read-back does not tell", m[1]!),
  ],
  [
    /^connection closed before the reply; read back when it returns$/,
    () => ({
      zh: "应答前连接断开，重连后回读确认",
      en: "Connection lost before the reply; read back when it returns",
    }),
  ],
  [
    /^connection closed before the state could be verified; read back when it returns$/,
    () => ({
      zh: "核实前连接断开，重连后回读确认",
      en: "Connection lost before the check; read back when it returns",
    }),
  ],
  [
    /^connection closed during read-back$/,
    () => ({ zh: "回读时连接断开", en: "Connection lost during the read-back" }),
  ],
  [
    /^the gateway stopped before the reply; read again$/,
    () => ({ zh: "应答前网关停止，需重新读取", en: "The gateway stopped before the reply; read again" }),
  ],
  [
    /^expired before it could be sent$/,
    () => ({ zh: "发送前已过期", en: "Expired before it could be sent" }),
  ],
  [/^not sent: (.*)$/, (m) => ({ zh: `未发送：${m[1]}`, en: `Not sent: ${m[1]}` })],
  [/^error reply[:,] ?(.*)$/, (m) => ({ zh: `表计回复错误：${m[1]}`, en: `Error reply: ${m[1]}` })],
  [/^unexpected reply:? ?(.*)$/, (m) => ({ zh: `应答不符：${m[1]}`, en: `Unexpected reply: ${m[1]}` })],
  [
    /^unsupported command (.*)$/,
    (m) => ({ zh: `不支持的命令：${m[1]}`, en: `Unsupported command: ${m[1]}` }),
  ],
];

function withFact(zh: string, en: string, text: string): Words {
  const quoted = fact(text);
  return { zh: `${zh}（${quoted.zh}）`, en: `${en} (${quoted.en})` };
}

/** The reason of a command's state from its stored evidence (JSON); empty while it is queued. */
export function commandReason(evidence: unknown): Words {
  if (typeof evidence !== "string" || evidence === "") return { zh: "", en: "" };
  let detail: unknown;
  try {
    detail = (JSON.parse(evidence) as { detail?: unknown }).detail;
  } catch {
    return { zh: evidence, en: evidence };
  }
  if (typeof detail !== "string") return { zh: "", en: "" };
  for (const [pattern, words] of SENTENCES) {
    const m = detail.match(pattern);
    if (m) return words(m);
  }
  // A sentence this table does not know yet is shown as written rather than hidden.
  return { zh: detail, en: detail };
}
