// Imported first by every command-line tool: the Lambda runtime is Node.js 24, and on a Node 20 laptop the AWS
// SDK's support notice (printed when the SDK loads, before any other line of ours could turn it off) is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
