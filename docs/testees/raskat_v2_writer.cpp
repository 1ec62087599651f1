// A raSkat v2 signal writer driven by `recspec drive writer` (a C++ program with a small driver).
//
//   g++ -std=c++17 -O2 -o raskat_v2_writer raskat_v2_writer.cpp
//   recspec drive writer raskat-signal --variant v2 --profile compat -- ./raskat_v2_writer {case} {out}
//   recspec drive writer raskat-signal --variant v2 --profile compat --persistent -- ./raskat_v2_writer --persistent
//
// The writer part (write_v2) is what a detector's firmware would have; the driver part (main) reads the
// case JSON recspec hands it, calls the writer, and exits non-zero to refuse a case the layout cannot
// hold. A v2 case is one flat JSON object (recspec/schemas/case-2.schema.json), so the driver reads it
// with a few lines of scanning instead of a JSON library.
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

struct Fixed { uint16_t whole; uint32_t millionths; };

struct SignalV2 {
    std::string time;  // 14 digits, %Y%m%d%H%M%S
    uint32_t microseconds;
    double longitude, latitude, altitude;
    uint32_t sample_rate;
    uint8_t flags;
    std::vector<int16_t> samples;
};

// --- the writer -------------------------------------------------------------------------------

// v2 stores unsigned parts: refuse what it cannot hold (a negative coordinate) instead of wrapping it,
// and round the fraction (flooring a value computed in floating point loses a millionth).
static bool to_fixed(double degrees, Fixed &out) {
    if (!(degrees >= 0.0 && degrees < 65536.0)) return false;
    double whole = std::floor(degrees);
    long frac = std::lround((degrees - whole) * 1e6);
    if (frac >= 1000000) { whole += 1; frac -= 1000000; }
    if (whole >= 65536.0) return false;
    if (whole + static_cast<double>(frac) / 1e6 != degrees) return false;  // not a whole number of millionths
    out.whole = static_cast<uint16_t>(whole);
    out.millionths = static_cast<uint32_t>(frac);
    return true;
}

template <typename T> static void put(std::string &buf, T v) {  // little-endian
    for (size_t i = 0; i < sizeof(T); ++i) buf.push_back(static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff));
}

static bool write_v2(const SignalV2 &s, const std::string &path, std::string &why) {
    Fixed lon, lat, alt;
    if (!to_fixed(s.longitude, lon) || !to_fixed(s.latitude, lat) || !to_fixed(s.altitude, alt)) {
        why = "a coordinate outside 0 .. 65535.999999, or not a whole number of millionths: v2 cannot store it";
        return false;
    }
    if (s.time.size() != 14) { why = "the time is not 14 characters"; return false; }
    std::string buf;
    put<uint16_t>(buf, 2);
    buf += s.time;
    put<uint32_t>(buf, s.microseconds);
    for (const Fixed &f : {lon, lat, alt}) { put<uint16_t>(buf, f.whole); put<uint32_t>(buf, f.millionths); }
    put<uint32_t>(buf, s.sample_rate);
    put<uint8_t>(buf, s.flags);
    put<uint32_t>(buf, static_cast<uint32_t>(s.samples.size()));
    for (int16_t x : s.samples) put<uint16_t>(buf, static_cast<uint16_t>(x));
    std::ofstream out(path, std::ios::binary);
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    return static_cast<bool>(out);
}

// --- the driver: the case JSON in, the writer called ------------------------------------------

static std::string text;

static size_t value_at(const std::string &key) {
    size_t at = text.find("\"" + key + "\"");
    if (at == std::string::npos) throw std::runtime_error("the case has no " + key);
    return text.find(':', at) + 1;
}

// std::strtod, not std::stod: std::stod throws std::out_of_range on a subnormal such as 5e-324 (strtod sets
// ERANGE and still returns the value), and a case may hold any double.
static double number(const std::string &key) {
    const char *start = text.c_str() + value_at(key);
    char *end = nullptr;
    double value = std::strtod(start, &end);
    if (end == start) throw std::runtime_error("the case's " + key + " is not a number");
    return value;
}

static std::string string_value(const std::string &key) {
    size_t open = text.find('"', value_at(key));
    return text.substr(open + 1, text.find('"', open + 1) - open - 1);
}

static std::vector<int16_t> samples() {
    size_t open = text.find('[', value_at("samples")), close = text.find(']', open);
    std::vector<int16_t> out;
    std::stringstream in(text.substr(open + 1, close - open - 1));
    for (std::string item; std::getline(in, item, ',');)
        if (item.find_first_not_of(" \n\t") != std::string::npos) out.push_back(static_cast<int16_t>(std::stoi(item)));
    return out;
}

// One case: the case JSON in `text`; writes `out`; 0 written, 1 refused (why says why), 2 a bad case.
static int write_case(const std::string &out, std::string &why) {
    try {
        if (string_value("variant") != "v2" || string_value("container") != "raw") {
            why = "this writer writes raw v2 signals only";
            return 2;
        }
        SignalV2 s{string_value("time"), static_cast<uint32_t>(number("microseconds")), number("longitude"),
                   number("latitude"), number("altitude"), static_cast<uint32_t>(number("sample_rate")),
                   static_cast<uint8_t>(number("flags")), samples()};
        if (!write_v2(s, out, why)) return 1;
    } catch (const std::exception &e) {
        why = std::string("bad case: ") + e.what();
        return 2;
    }
    return 0;
}

// --persistent: requests and answers are a 4-byte little-endian length and that much JSON. A request is
// {"case": {...}, "out": "PATH"}: the flat scan above finds the case's keys inside it, and "out" beside them.
static bool read_exactly(std::string &buf, size_t n) {
    buf.resize(n);
    return n == 0 || std::fread(&buf[0], 1, n, stdin) == n;
}

static void answer(const std::string &json) {
    std::string head;
    put<uint32_t>(head, static_cast<uint32_t>(json.size()));
    std::fwrite(head.data(), 1, head.size(), stdout);
    std::fwrite(json.data(), 1, json.size(), stdout);
    std::fflush(stdout);
}

static std::string json_string(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out + "\"";
}

static int serve() {
    std::string head;
    while (read_exactly(head, 4)) {
        uint32_t size = 0;
        for (int i = 3; i >= 0; --i) size = (size << 8) | static_cast<unsigned char>(head[i]);
        if (!read_exactly(text, size)) return 2;
        std::string why;
        int status = write_case(string_value("out"), why);
        answer(status == 0 ? "{\"ok\": true}" : "{\"ok\": false, \"error\": " + json_string(why) + "}");
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && std::string(argv[1]) == "--persistent") return serve();
    if (argc != 3) { std::cerr << "usage: raskat_v2_writer CASE.json OUT | raskat_v2_writer --persistent\n"; return 2; }
    std::ifstream in(argv[1]);
    std::stringstream all;
    all << in.rdbuf();
    text = all.str();
    std::string why;
    int status = write_case(argv[2], why);
    if (status == 1) std::cerr << "refused: " << why << "\n";
    else if (status != 0) std::cerr << why << "\n";
    return status;
}
