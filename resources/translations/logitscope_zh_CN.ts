<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AnswerBubble</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="69"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="72"/>
        <source>Previous version</source>
        <translation>上一版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="74"/>
        <source>Next version</source>
        <translation>下一版本</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="80"/>
        <source>Tokens</source>
        <translation>显示 token</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="80"/>
        <source>Switch between formatted Markdown and the raw tokens (hover a token for its alternatives, click to inspect it)</source>
        <translation>在排版后的 Markdown 与原始 token 之间切换（悬停 token 可查看候选，点击可查看详情）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="85"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="85"/>
        <source>Generate this answer again (a new version)</source>
        <translation>重新生成此回答（作为新版本）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="87"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="87"/>
        <source>Copy this answer</source>
        <translation>复制此回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="139"/>
        <source>generating…</source>
        <translation>正在生成…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="141"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="143"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="145"/>
        <source>failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="147"/>
        <source>forked at token {0}</source>
        <translation>在第 {0} 个 token 处分叉</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="150"/>
        <source>{0} tokens, {1:.1f} tok/s</source>
        <translation>{0} 个 token，{1:.1f} tok/s</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="200"/>
        <source>Ask anything. Every token of the answer can be inspected on the right.</source>
        <translation>尽管提问。回答中的每个 token 都可以在右侧查看。</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="29"/>
        <source>Connect to a server</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="32"/>
        <source>Chat with and inspect a model served by llama-server, vLLM, LM Studio, Ollama or any OpenAI-compatible server. The server decides what can be shown: usually the top alternatives of each token, but no sampler stages and no KV cache figures.</source>
        <translation>与 llama-server、vLLM、LM Studio、Ollama 或任何兼容 OpenAI 的服务器上的模型对话并查看其内部。能显示什么由服务器决定：通常有每个 token 的候选项，但没有采样器各阶段，也没有 KV 缓存数据。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="39"/>
        <source>Server URL</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="42"/>
        <source>only if the server asks for one</source>
        <translation>仅当服务器要求时填写</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="43"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="47"/>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="51"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="52"/>
        <source>Do not verify the TLS certificate (only for servers you trust)</source>
        <translation>不验证 TLS 证书（仅用于你信任的服务器）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="54"/>
        <source>Ask llama-server for post-sampling probabilities instead of raw ones</source>
        <translation>向 llama-server 请求采样后的概率，而不是原始概率</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="61"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="89"/>
        <source>Asking the server…</source>
        <translation>正在询问服务器…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/connect.py" line="94"/>
        <source>{0} model(s) on this server.</source>
        <translation>该服务器上有 {0} 个模型。</translation>
    </message>
</context>
<context>
    <name>DistributionModel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="56"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="56"/>
        <source>token</source>
        <translation>token</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="56"/>
        <source>raw p</source>
        <translation>原始 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="56"/>
        <source>final p</source>
        <translation>最终 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="92"/>
        <source>raw p {0} — after the sampler {1}</source>
        <translation>原始 p {0} — 采样后 {1}</translation>
    </message>
</context>
<context>
    <name>DistributionPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="134"/>
        <source>No step selected yet: send a message.</source>
        <translation>尚未选中任何步骤：请先发送一条消息。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="156"/>
        <source>▶ chosen token · &lt;span style=&apos;color:{0}&apos;&gt;‒ ‒&lt;/span&gt; top-p cut · &lt;span style=&apos;color:{1}&apos;&gt;┆&lt;/span&gt; min-p threshold (on raw p)</source>
        <translation>▶ 选中的 token · &lt;span style=&apos;color:{0}&apos;&gt;‒ ‒&lt;/span&gt; top-p 截断 · &lt;span style=&apos;color:{1}&apos;&gt;┆&lt;/span&gt; min-p 阈值（按原始 p）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="210"/>
        <source>Step {0} — preview with the current sliders (the model is not run). Recorded choice: {1}</source>
        <translation>第 {0} 步 — 按当前滑块预览（不运行模型）。记录的选择：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="213"/>
        <source> — {0:.1%} of the raw mass lies outside the stored head</source>
        <translation> — 原始概率质量中有 {0:.1%} 不在已存储的头部候选中</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/distribution.py" line="215"/>
        <source>Step {0}: chose {1} — raw p {2} (rank {3}), final p {4} (rank {5}), entropy {6} nats</source>
        <translation>第 {0} 步：选择了 {1} — 原始 p {2}（排名 {3}），最终 p {4}（排名 {5}），熵 {6} nats</translation>
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
        <location filename="../../app/logitscope/ui/dialogs/edit_message.py" line="23"/>
        <source>Send again</source>
        <translation>重新发送</translation>
    </message>
</context>
<context>
    <name>HeatmapLegend</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/heatmap_legend.py" line="63"/>
        <source>Heatmap: raw p of each chosen token</source>
        <translation>热图：每个选中 token 的原始 p</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/heatmap_legend.py" line="67"/>
        <source>Heatmap: rank of each chosen token (1 = the most likely)</source>
        <translation>热图：每个选中 token 的排名（1 = 最可能）</translation>
    </message>
</context>
<context>
    <name>LoadModelDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="38"/>
        <source>Load {0}</source>
        <translation>加载 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="51"/>
        <source>Tokens of context. Trained for {0}.</source>
        <translation>上下文的 token 数。训练时为 {0}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="52"/>
        <source>Context (tokens)</source>
        <translation>上下文（token）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="60"/>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="66"/>
        <source>This build of llama.cpp has no GPU backend ({0}): everything runs on the CPU. See the README for CUDA, Vulkan and Metal builds.</source>
        <translation>此 llama.cpp 构建没有 GPU 后端（{0}）：全部在 CPU 上运行。CUDA、Vulkan 和 Metal 构建请参阅 README。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="73"/>
        <source>KV cache type</source>
        <translation>KV 缓存类型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="74"/>
        <source>Flash attention (needed for a quantized V cache)</source>
        <translation>Flash attention（量化 V 缓存需要）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="80"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="81"/>
        <source>CPU threads</source>
        <translation>CPU 线程数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="87"/>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="120"/>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="124"/>
        <source>Needs about {0}: weights {1} + KV cache {2} + compute {3}.</source>
        <translation>约需 {0}：权重 {1} + KV 缓存 {2} + 计算 {3}。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="131"/>
        <source>A quantized V cache needs flash attention.</source>
        <translation>量化 V 缓存需要开启 Flash attention。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="98"/>
        <source>This file is damaged: llama.cpp cannot load it.</source>
        <translation>此文件已损坏：llama.cpp 无法加载它。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/load_model.py" line="129"/>
        <source>llama.cpp rounds the context up to {0} tokens.</source>
        <translation>llama.cpp 会把上下文向上取整为 {0} 个 token。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="109"/>
        <location filename="../../app/logitscope/ui/main_window.py" line="850"/>
        <source>Notice</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="117"/>
        <source>&lt;b&gt;Conversations&lt;/b&gt;</source>
        <translation>&lt;b&gt;对话&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="119"/>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="128"/>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="129"/>
        <location filename="../../app/logitscope/ui/main_window.py" line="672"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="130"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="137"/>
        <source>&lt;b&gt;Model&lt;/b&gt;</source>
        <translation>&lt;b&gt;模型&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="138"/>
        <location filename="../../app/logitscope/ui/main_window.py" line="427"/>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="144"/>
        <source>Cancel loading</source>
        <translation>取消加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="152"/>
        <source>Open model…</source>
        <translation>打开模型…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="154"/>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="156"/>
        <source>Models…</source>
        <translation>模型库…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="175"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="177"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="214"/>
        <source>Next-token distribution</source>
        <translation>下一 token 分布</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="215"/>
        <source>Sampler waterfall</source>
        <translation>采样器瀑布图</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="216"/>
        <source>Sampler controls</source>
        <translation>采样器参数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="217"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="218"/>
        <source>Memory and context</source>
        <translation>内存与上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="219"/>
        <source>Model card</source>
        <translation>模型卡片</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="220"/>
        <location filename="../../app/logitscope/ui/main_window.py" line="620"/>
        <location filename="../../app/logitscope/ui/main_window.py" line="785"/>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="241"/>
        <source>&amp;New chat</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="242"/>
        <source>&amp;Open model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="243"/>
        <source>&amp;Export trace…</source>
        <translation>导出轨迹(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="244"/>
        <source>Save the selected answer&apos;s trace as JSON Lines</source>
        <translation>将所选回答的轨迹保存为 JSON Lines</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="245"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="246"/>
        <source>&amp;Stop generating</source>
        <translation>停止生成(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="247"/>
        <source>&amp;Regenerate</source>
        <translation>重新生成(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="249"/>
        <source>&amp;Edit last message</source>
        <translation>编辑最后一条消息(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="251"/>
        <source>&amp;Copy last answer</source>
        <translation>复制最后一个回答(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="252"/>
        <source>Probability &amp;heatmap</source>
        <translation>概率热力图(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="254"/>
        <source>Colour by &amp;rank instead</source>
        <translation>改为按排名着色(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="256"/>
        <source>Reset &amp;layout</source>
        <translation>重置布局(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="257"/>
        <source>&amp;Reload model</source>
        <translation>重新加载模型(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="258"/>
        <source>&amp;Models…</source>
        <translation>模型库(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="259"/>
        <source>Models on this computer and on Hugging Face</source>
        <translation>本机和 Hugging Face 上的模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="260"/>
        <source>&amp;Connect to a server…</source>
        <translation>连接服务器(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="261"/>
        <source>llama-server, vLLM or any OpenAI-compatible server</source>
        <translation>llama-server、vLLM 或任何兼容 OpenAI 的服务器</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="262"/>
        <source>&amp;About Logitscope</source>
        <translation>关于 Logitscope(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="263"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="264"/>
        <source>Export conversation…</source>
        <translation>导出对话…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="265"/>
        <source>Import conversations…</source>
        <translation>导入对话…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="267"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="274"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="277"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="285"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="290"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="323"/>
        <source>Open a GGUF model</source>
        <translation>打开 GGUF 模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="323"/>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="331"/>
        <source>This file cannot be loaded</source>
        <translation>无法加载此文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="362"/>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="367"/>
        <source>{0}&lt;br&gt;&lt;small&gt;on {1} ({2})&lt;/small&gt;</source>
        <translation>{0}&lt;br&gt;&lt;small&gt;位于 {1}（{2}）&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="373"/>
        <source>A remote server does not report its KV cache.</source>
        <translation>远程服务器不报告其 KV 缓存。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="374"/>
        <source>&lt;p&gt;Remote model &lt;b&gt;{0}&lt;/b&gt; on {1} ({2}). No GGUF header to read: the server does not share it.&lt;/p&gt;</source>
        <translation>&lt;p&gt;远程模型 &lt;b&gt;{0}&lt;/b&gt;，位于 {1}（{2}）。没有可读取的 GGUF 头：服务器不提供。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="386"/>
        <source>Connected to {0}</source>
        <translation>已连接到 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="393"/>
        <source>Loading {0}…</source>
        <translation>正在加载 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="409"/>
        <source>{0}&lt;br&gt;&lt;small&gt;{1}, {2:,} tokens of context&lt;/small&gt;</source>
        <translation>{0}&lt;br&gt;&lt;small&gt;{1}，上下文 {2:,} 个 token&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="420"/>
        <source>Model loaded in {0:.2f} s</source>
        <translation>模型已加载，用时 {0:.2f} 秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="431"/>
        <source>The model could not be loaded</source>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="448"/>
        <source>The engine stopped. Use Model ▸ Reload model.</source>
        <translation>引擎已停止。请使用“模型 ▸ 重新加载模型”。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="440"/>
        <source>The engine process crashed</source>
        <translation>引擎进程已崩溃</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="443"/>
        <source>The engine stopped responding</source>
        <translation>引擎已停止响应</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="444"/>
        <source>The engine gave no sign of life for {0:g} s, so it was ended. The answer so far is kept.</source>
        <translation>引擎已有 {0:g} 秒没有任何响应，因此已将其结束。已生成的回答会保留。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="452"/>
        <source>Your conversation is safe. Reload the model to continue.</source>
        <translation>对话不会丢失。重新加载模型即可继续。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="459"/>
        <source>Load a model first (File ▸ Open model…)</source>
        <translation>请先加载模型（文件 ▸ 打开模型…）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="521"/>
        <source>first token {0:.0f} ms · {1:.1f} tok/s</source>
        <translation>首 token {0:.0f} ms · {1:.1f} tok/s</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="536"/>
        <source>Generation failed</source>
        <translation>生成失败</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="540"/>
        <source>The answer is not saved yet</source>
        <translation>回答尚未保存</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="541"/>
        <source>The history database refused to save this answer ({0}). It stays in this window, and Logitscope keeps trying to save it: another program may be writing to the history.</source>
        <translation>历史数据库拒绝保存此回答（{0}）。回答仍保留在此窗口中，Logitscope 会继续尝试保存：可能有其他程序正在写入历史记录。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="560"/>
        <source>Only the last answer can be regenerated</source>
        <translation>只能重新生成最后一个回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="568"/>
        <source>Only the last message can be edited</source>
        <translation>只能编辑最后一条消息</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="597"/>
        <source>Forking needs token ids: use a local model</source>
        <translation>分叉需要 token id：请使用本地模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="600"/>
        <source>Forking works on the last answer, when nothing is generating</source>
        <translation>只能在没有生成任务时对最后一个回答分叉</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="611"/>
        <source>Fork with your own token</source>
        <translation>用自选 token 分叉</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="612"/>
        <source>Text of the token to force (its first token is used):</source>
        <translation>要强制使用的 token 文本（取其第一个 token）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="650"/>
        <source>No conversations match</source>
        <translation>没有匹配的对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="661"/>
        <source>Wait for the answer to finish (or press Esc)</source>
        <translation>请等待回答完成（或按 Esc）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="672"/>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="684"/>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="685"/>
        <source>Delete “{0}”?</source>
        <translation>删除“{0}”？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="696"/>
        <source>Conversation deleted.</source>
        <translation>对话已删除。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="703"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="777"/>
        <source>Start a chat first: the prompt is built from it</source>
        <translation>请先开始对话：提示词由对话生成</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="783"/>
        <source>the prompt of the last turn, as the model received it</source>
        <translation>最后一轮的提示词，即模型实际收到的内容</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="791"/>
        <source>No answer to export yet</source>
        <translation>还没有可导出的回答</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="796"/>
        <source>Export trace</source>
        <translation>导出轨迹</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="797"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="806"/>
        <location filename="../../app/logitscope/ui/main_window.py" line="830"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="808"/>
        <source>Trace saved to {0}</source>
        <translation>轨迹已保存到 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="815"/>
        <source>Nothing to export yet</source>
        <translation>还没有可导出的内容</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="818"/>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="819"/>
        <source>Markdown (*.md);;JSON, lossless with traces (*.json)</source>
        <translation>Markdown (*.md);;JSON，无损并含轨迹 (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="832"/>
        <source>Conversation saved to {0}</source>
        <translation>对话已保存到 {0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="840"/>
        <source>Import conversations</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="840"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="847"/>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="855"/>
        <source>{0} conversation(s) imported</source>
        <translation>已导入 {0} 个对话</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="868"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="882"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="905"/>
        <source>About Logitscope</source>
        <translation>关于 Logitscope</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="906"/>
        <source>&lt;h3&gt;Logitscope {0}&lt;/h3&gt;&lt;p&gt;Chat with a local LLM and see inside it.&lt;/p&gt;&lt;p&gt;llama.cpp backend in this build: &lt;b&gt;{1}&lt;/b&gt; (GPU offload: {2}).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Logitscope {0}&lt;/h3&gt;&lt;p&gt;与本地大语言模型对话，并看清它的内部。&lt;/p&gt;&lt;p&gt;此构建的 llama.cpp 后端：&lt;b&gt;{1}&lt;/b&gt;（GPU 卸载：{2}）。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="908"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="909"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="915"/>
        <source>Reload model</source>
        <translation>重新加载模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="945"/>
        <source>context {0} / {1}</source>
        <translation>上下文 {0} / {1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="949"/>
        <source>no model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="952"/>
        <source>remote: {0}</source>
        <translation>远程：{0}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/main_window.py" line="954"/>
        <source>{0} · {1} of {2} layers offloaded</source>
        <translation>{0} · 已卸载 {1}/{2} 层到 GPU</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/app.py" line="60"/>
        <source>No model yet: File ▸ Open model… (or run `logitscope models fetch-demo`)</source>
        <translation>尚无模型：文件 ▸ 打开模型…（或运行 `logitscope models fetch-demo`）</translation>
    </message>
</context>
<context>
    <name>MemoryPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="21"/>
        <source>Model weights</source>
        <translation>模型权重</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="22"/>
        <source>KV cache allocated</source>
        <translation>KV 缓存（已分配）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="23"/>
        <source>KV cache in use</source>
        <translation>KV 缓存（已使用）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="24"/>
        <source>Compute buffer</source>
        <translation>计算缓冲区</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="27"/>
        <source>context: %v of %m tokens</source>
        <translation>上下文：%v / %m 个 token</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="44"/>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="51"/>
        <source>{0} for {1} tokens</source>
        <translation>{0}，可容纳 {1} 个 token</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="56"/>
        <source>&lt;b&gt;KV cache per token&lt;/b&gt; = 2 (K and V) × {0} layers × {1} KV heads × {2} head dim × {3} bytes = &lt;b&gt;{4:,.0f} bytes&lt;/b&gt;. Each token of context costs that much, for every token kept.</source>
        <translation>&lt;b&gt;每个 token 的 KV 缓存&lt;/b&gt; = 2（K 和 V）× {0} 层 × {1} 个 KV 头 × {2} 维（每头）× {3} 字节 = &lt;b&gt;{4:,.0f} 字节&lt;/b&gt;。上下文中保留的每个 token 都占用这么多。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="60"/>
        <source>The same context with another KV cache type: {0} (a quantized V cache needs flash attention).</source>
        <translation>同样的上下文换用其他 KV 缓存类型：{0}（量化 V 缓存需要 Flash attention）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/memory.py" line="68"/>
        <source>{0} ({1} tokens)</source>
        <translation>{0}（{1} 个 token）</translation>
    </message>
</context>
<context>
    <name>ModelCardPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="31"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="31"/>
        <source>Name in the metadata</source>
        <translation>元数据中的名称</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="32"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="33"/>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="33"/>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="34"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="35"/>
        <source>Tensor types</source>
        <translation>张量类型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="35"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="36"/>
        <source>{0} (+ the output layer: {1} that can be offloaded to a GPU)</source>
        <translation>{0}（另加输出层：共 {1} 层可卸载到 GPU）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="37"/>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="37"/>
        <source>{0} (KV heads {1}, head dim {2})</source>
        <translation>{0}（KV 头 {1}，头维度 {2}）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="38"/>
        <source>Embedding / FFN</source>
        <translation>嵌入 / FFN</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="39"/>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="40"/>
        <source>Training context</source>
        <translation>训练上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="40"/>
        <source>Context now</source>
        <translation>当前上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="41"/>
        <source>BOS / EOS</source>
        <translation>BOS / EOS</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="42"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="42"/>
        <source>{0}, {1} of {2} layers on the GPU</source>
        <translation>{0}，{1}/{2} 层在 GPU 上</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="44"/>
        <source>Load time</source>
        <translation>加载耗时</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/model_card.py" line="47"/>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
</context>
<context>
    <name>ModelsWindow</name>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="70"/>
        <source>Models</source>
        <translation>模型库</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="84"/>
        <source>On this computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="85"/>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="96"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="96"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="203"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="230"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="96"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="203"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="229"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="96"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="229"/>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="97"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="97"/>
        <source>Chat template</source>
        <translation>聊天模板</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="97"/>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="203"/>
        <source>Fits this machine?</source>
        <translation>本机可运行？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="98"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="102"/>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="103"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="104"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="115"/>
        <source>Looking for models…</source>
        <translation>正在查找模型…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="127"/>
        <source>damaged</source>
        <translation>已损坏</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="127"/>
        <source>not usable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="138"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="138"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="144"/>
        <source>{0} model file(s) found, {1} usable.</source>
        <translation>找到 {0} 个模型文件，其中 {1} 个可用。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="147"/>
        <source>fits</source>
        <translation>可运行</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="147"/>
        <source>tight</source>
        <translation>偏紧</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="147"/>
        <source>does not fit</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="148"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="159"/>
        <source>{0} cannot be loaded: {1}</source>
        <translation>无法加载 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="168"/>
        <source>{0} belongs to {1}; Logitscope only removes files in its own models folder.</source>
        <translation>{0} 属于 {1}；Logitscope 只删除自己模型文件夹中的文件。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="171"/>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="172"/>
        <source>Delete {0} ({1}) from disk?</source>
        <translation>要从磁盘删除 {0}（{1}）吗？</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="185"/>
        <source>Search GGUF models, e.g. qwen2.5 instruct</source>
        <translation>搜索 GGUF 模型，例如 qwen2.5 instruct</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="188"/>
        <source>most downloaded</source>
        <translation>下载最多</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="188"/>
        <source>most liked</source>
        <translation>点赞最多</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="189"/>
        <source>most recent</source>
        <translation>最近更新</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="191"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="193"/>
        <source>Access token…</source>
        <translation>访问令牌…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="229"/>
        <source>Recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="239"/>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="239"/>
        <source>Downloads</source>
        <translation>下载量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="239"/>
        <source>Likes</source>
        <translation>点赞数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="239"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="203"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="209"/>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="211"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="247"/>
        <source>Searching the Hub for “{0}”…</source>
        <translation>正在 Hugging Face 上搜索“{0}”…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="260"/>
        <source>{0} repositories.</source>
        <translation>{0} 个仓库。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="268"/>
        <source>Listing {0}…</source>
        <translation>正在列出 {0} 中的文件…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="284"/>
        <source>Listing files…</source>
        <translation>正在列出文件…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="301"/>
        <source> ({0} parts)</source>
        <translation>（{0} 个分片）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="306"/>
        <source>{0}: {1} GGUF model(s).</source>
        <translation>{0}：{1} 个 GGUF 模型。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="319"/>
        <source>Downloading {0}…</source>
        <translation>正在下载 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="327"/>
        <source>, {0:.0f} s left</source>
        <translation>，剩余 {0:.0f} 秒</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="328"/>
        <source>{0} of {1}, {2}/s{3}</source>
        <translation>{0} / {1}，{2}/s{3}</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="339"/>
        <source>{0} is ready ({1}, SHA-256 verified).</source>
        <translation>{0} 已就绪（{1}，SHA-256 已校验）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="347"/>
        <source>Download again to resume where it stopped.</source>
        <translation>再次下载即可从中断处继续。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="351"/>
        <source>Hugging Face access token</source>
        <translation>Hugging Face 访问令牌</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="352"/>
        <source>For gated or private repositories (empty to remove):</source>
        <translation>用于受限或私有仓库（留空则移除）：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="358"/>
        <source>Token saved.</source>
        <translation>令牌已保存。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/models/models_window.py" line="361"/>
        <source>Token removed.</source>
        <translation>令牌已移除。</translation>
    </message>
</context>
<context>
    <name>PromptBox</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/prompt_box.py" line="15"/>
        <source>Message the model… (Enter to send, Shift+Enter for a new line)</source>
        <translation>给模型发消息…（Enter 发送，Shift+Enter 换行）</translation>
    </message>
</context>
<context>
    <name>SamplerPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="110"/>
        <source>Presets: Greedy always takes the most likely token; Creative samples widely</source>
        <translation>预设：Greedy 总是选取概率最高的 token；Creative 的采样范围更广</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="111"/>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="119"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="119"/>
        <source>Top-k (0 = off)</source>
        <translation>Top-k（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="120"/>
        <source>Top-p (1 = off)</source>
        <translation>Top-p（1 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="120"/>
        <source>Min-p (0 = off)</source>
        <translation>Min-p（0 = 关闭）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="121"/>
        <source>Repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="121"/>
        <source>Penalty window (tokens)</source>
        <translation>惩罚窗口（token）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="122"/>
        <source>Frequency penalty</source>
        <translation>频率惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="122"/>
        <source>Presence penalty</source>
        <translation>存在惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="132"/>
        <source>temperature last (llama.cpp)</source>
        <translation>温度在后（llama.cpp）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="133"/>
        <source>temperature first</source>
        <translation>温度在前</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="135"/>
        <source>Order</source>
        <translation>顺序</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="137"/>
        <source>fixed</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="146"/>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="150"/>
        <source>Max tokens</source>
        <translation>最大 token 数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="152"/>
        <source>e.g. ###, \n\n (comma-separated)</source>
        <translation>例如 ###, \n\n（用英文逗号分隔）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="153"/>
        <source>Stop sequences</source>
        <translation>停止序列</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="181"/>
        <source>Save preset</source>
        <translation>保存预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="181"/>
        <source>Preset name:</source>
        <translation>预设名称：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="224"/>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="227"/>
        <location filename="../../app/logitscope/ui/inspector/sampler_controls.py" line="228"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="29"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="34"/>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="40"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="34"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="35"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="38"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="43"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="44"/>
        <source>A new language applies the next time Logitscope starts.</source>
        <translation>新语言将在下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="50"/>
        <source>Default sampler preset</source>
        <translation>默认采样器预设</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="54"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="58"/>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="60"/>
        <source>Also look for models in these folders:</source>
        <translation>同时在以下文件夹中查找模型：</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="65"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="66"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/dialogs/settings.py" line="79"/>
        <source>Models folder</source>
        <translation>模型文件夹</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="28"/>
        <source>p of the chosen token (raw)</source>
        <translation>所选 token 的 p（原始）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="32"/>
        <source>latency (ms)</source>
        <translation>延迟（ms）</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="33"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/timeline.py" line="28"/>
        <source>entropy (nats)</source>
        <translation>熵（nats）</translation>
    </message>
</context>
<context>
    <name>TokenTextView</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="190"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="193"/>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="197"/>
        <source>Inspect this token</source>
        <translation>检查此 token</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="203"/>
        <source>Fork here with…</source>
        <translation>在此分叉，改用…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="210"/>
        <source>Type a token…</source>
        <translation>输入一个 token…</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/message_view.py" line="219"/>
        <source>step {0}: p = {1} (rank {2}), entropy {3} nats</source>
        <translation>第 {0} 步：p = {1}（排名 {2}），熵 {3} nats</translation>
    </message>
</context>
<context>
    <name>TokenizerPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="33"/>
        <source>Type any text to see how the model splits it into tokens</source>
        <translation>输入任意文本，查看模型如何将其切分为 token</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="38"/>
        <source>Show this chat&apos;s prompt</source>
        <translation>显示此对话的提示词</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="39"/>
        <source>The exact text the model received, chat template and special tokens included</source>
        <translation>模型实际收到的完整文本，包括聊天模板和特殊 token</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/tokenizer.py" line="63"/>
        <source>{0} tokens{1}</source>
        <translation>{0} 个 token{1}</translation>
    </message>
</context>
<context>
    <name>UserBubble</name>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="36"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="40"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="40"/>
        <source>Edit and resend this message</source>
        <translation>编辑并重新发送此消息</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="42"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/chat/chat_view.py" line="42"/>
        <source>Copy this message</source>
        <translation>复制此消息</translation>
    </message>
</context>
<context>
    <name>WaterfallPanel</name>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="19"/>
        <source>How each sampler stage narrows the choice.</source>
        <translation>采样器的各个阶段如何逐步缩小选择范围。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="24"/>
        <source>mass kept</source>
        <translation>保留质量</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="24"/>
        <source>log10 n</source>
        <translation>log10 候选数</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="44"/>
        <source>Step {0}: this engine does not report its sampler stages (a remote server samples on its side).</source>
        <translation>第 {0} 步：该引擎不报告采样器各阶段（远程服务器在其自身一侧采样）。</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="49"/>
        <source>penalties</source>
        <translation>惩罚</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="50"/>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="51"/>
        <source>vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="70"/>
        <source>temperature first</source>
        <translation>温度在前</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="70"/>
        <source>temperature last</source>
        <translation>温度在后</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="71"/>
        <source>preview with the current sliders</source>
        <translation>按当前滑块预览</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="71"/>
        <source>as recorded</source>
        <translation>按记录</translation>
    </message>
    <message>
        <location filename="../../app/logitscope/ui/inspector/waterfall.py" line="72"/>
        <source>Step {0}, {1}, order: {2}. Mass kept is the share of probability left after each stage (compounded).</source>
        <translation>第 {0} 步，{1}，顺序：{2}。保留质量是每个阶段之后剩余的概率占比（逐级累乘）。</translation>
    </message>
</context>
</TS>
