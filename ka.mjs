import http from "node:http"
const agent = new http.Agent({ keepAlive: true })
const get = () => new Promise((res) => http.get({ host: "127.0.0.1", port: 3333, path: "/health", agent }, (r) => { r.resume(); r.on("end", res) }))
await get()
console.log("request done; keep-alive socket open", Date.now())
setTimeout(() => {}, 20000)
